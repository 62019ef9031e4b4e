import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { certificatePolicyOperations as ops, certificatePolicyRules } from "../../sdk/schemas";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { randomLowerAlphanumeric } from "../credentials";
import { forbidden, notFound } from "../errors";
import { newPolicy, policyRuleFields } from "../records";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { Actor, CertificatePolicy } from "../types";
import { policyView } from "../views";

/**
 * Certificate policies (docs/service-api.md §14) under `/api/v1/cert-manager/certificate-policies`.
 * A name already used in the project is not refused: the policy is stored under another
 * (`ensureUniqueSlug`), so the name a create or rename answers can differ from the one asked for.
 * A policy a certificate profile uses cannot be deleted.
 */
export function registerCertificatePolicyRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, policyHandlers, ctx);
}

type PolicyRequest<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

const policyHandlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: listPolicies,
  get: getPolicy,
  create: createPolicy,
  update: updatePolicy,
  delete: deletePolicy,
};

type PolicyRules = Pick<CertificatePolicy, (typeof policyRuleFields)[number]>;

function findPolicy(ctx: EmulatorContext, actor: Actor, id: string, action: string): CertificatePolicy {
  const p = ctx.store.policies.get(id);
  if (!p) throw notFound("Certificate policy not found");
  requireProject(ctx, actor, p.projectId, action, subjects.certificatePolicies, { name: p.name });
  return p;
}

const policyMeta = (p: CertificatePolicy) => ({ certificatePolicyId: p.id, name: p.name, projectId: p.projectId });

/** `name`, or when the project has a policy of that name, `<name>-<8 characters>` (then 12 random characters). */
function uniqueName(ctx: EmulatorContext, projectId: string, name: string): string {
  const taken = (n: string) => [...ctx.store.policies.values()].some((p) => p.projectId === projectId && p.name === n);
  if (!taken(name)) return name;
  const suffixed = `${name}-${randomLowerAlphanumeric(8)}`;
  return taken(suffixed) ? randomLowerAlphanumeric(12) : suffixed;
}

/** The rule fields a body gives (`undefined` for those it leaves out; null clears). */
function rulesOf(body: Partial<Record<(typeof policyRuleFields)[number], unknown>>): Partial<PolicyRules> {
  const out: Record<string, unknown> = {};
  for (const f of policyRuleFields) if (body[f] !== undefined) out[f] = body[f] ?? null;
  return out as Partial<PolicyRules>;
}

async function listPolicies(ctx: EmulatorContext, req: PolicyRequest<"list">) {
  const actor = actorOf(req);
  const q = req.query;
  requireProject(ctx, actor, q.projectId, "read", subjects.certificatePolicies);
  const search = q.search?.toLowerCase();
  const all = [...ctx.store.policies.values()].filter(
    (p) => p.projectId === q.projectId && (!search || p.name.toLowerCase().includes(search)),
  );
  // [UNCONFIRMED] the order: newest first, as certificate profiles are.
  const page = all.reverse().slice(q.offset, q.offset + q.limit);
  recordEvent(
    ctx,
    req,
    actor,
    "list-certificate-policies",
    { count: page.length, totalCount: all.length },
    q.projectId,
  );
  return { certificatePolicies: page.map(policyView), totalCount: all.length };
}

async function getPolicy(ctx: EmulatorContext, req: PolicyRequest<"get">) {
  const actor = actorOf(req);
  const p = findPolicy(ctx, actor, req.params.id, "read");
  recordEvent(ctx, req, actor, "get-certificate-policy", policyMeta(p), p.projectId);
  return { certificatePolicy: policyView(p) };
}

/** A type twice, or a value twice in one list: the service's 403 after its schema passed. */
function refuseDuplicates(body: Parameters<typeof certificatePolicyRules>[0]): void {
  const issue = certificatePolicyRules(body)[0];
  if (issue) throw forbidden(issue.message);
}

async function createPolicy(ctx: EmulatorContext, req: PolicyRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  requireProject(ctx, actor, body.projectId, "create", subjects.certificatePolicies, { name: body.name });
  refuseDuplicates(body);
  const p = newPolicy(
    {
      id: randomUUID(),
      projectId: body.projectId,
      name: uniqueName(ctx, body.projectId, body.name),
      ...rulesOf(body),
    },
    new Date().toISOString(),
  );
  ctx.store.policies.set(p.id, p);
  recordEvent(ctx, req, actor, "create-certificate-policy", policyMeta(p), p.projectId);
  return { certificatePolicy: policyView(p) };
}

/** Updates the fields given; a new name is made unique as on create, unless it is the current one. */
async function updatePolicy(ctx: EmulatorContext, req: PolicyRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const p = findPolicy(ctx, actor, req.params.id, "edit");
  refuseDuplicates(body);
  if (body.name !== undefined && body.name !== p.name) p.name = uniqueName(ctx, p.projectId, body.name);
  Object.assign(p, rulesOf(body));
  p.updatedAt = ctx.store.writeTime(p);
  recordEvent(ctx, req, actor, "update-certificate-policy", policyMeta(p), p.projectId);
  return { certificatePolicy: policyView(p) };
}

async function deletePolicy(ctx: EmulatorContext, req: PolicyRequest<"delete">) {
  const actor = actorOf(req);
  const p = findPolicy(ctx, actor, req.params.id, "delete");
  const users = [...ctx.store.profiles.values()].filter((x) => x.certificatePolicyId === p.id).map((x) => x.slug);
  if (users.length > 0) {
    throw forbidden(
      `Cannot delete policy '${p.name}' as it is currently in use by the following certificate profiles: ${users.join(", ")}. Please remove this policy from these profiles before deleting it.`,
    );
  }
  ctx.store.policies.delete(p.id);
  recordEvent(ctx, req, actor, "delete-certificate-policy", policyMeta(p), p.projectId);
  return { certificatePolicy: policyView(p) };
}
