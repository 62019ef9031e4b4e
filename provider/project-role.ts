import { z } from "zod";
import type { ProjectRoleRecord, SecretOpsClient } from "../sdk";
import { ProjectRoleCreateSchema, ProjectRoleUpdateSchema, nonEmpty, reservedProjectRoleSlugs } from "../sdk/schemas";
import { commonOptions, defineResource } from "./definition";
import { type ArgsOf } from "./inputs";
import { orUndefinedOn404 } from "./not-found";
import { uniqueIn } from "./program-keys";
import { familyReads } from "./shared-reads";
import { type Plain, isPlainObject } from "./values";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over the project's custom role with this slug when it exists, instead of failing. Default false. */
  adoptExisting: z.boolean().default(false),
});

const args = ProjectRoleCreateSchema.extend({
  /** The project the role is of. Changing it replaces the role. */
  projectId: nonEmpty,
});
type Args = z.output<typeof args>;

/** The args of a project role: the create body's schema, its project, and the options'. */
export type ProjectRoleArgs = ArgsOf<z.input<typeof args>> & ArgsOf<z.input<typeof options>>;

/** A role as this resource reads it: always with its project. */
type Remote = ProjectRoleRecord & { projectId: string };

/** One permission rule in the one spelling state and diff use (`normalPermissions`). */
export interface NormalPermission {
  subject: string;
  action: string[];
  conditions?: Plain;
  inverted?: true;
}

/** An object with its keys in order, its `$in` lists in order, recursively: one spelling of one condition. */
function normalCondition(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalCondition);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => {
        const v = normalCondition(value[k]);
        // `$in` is a set (CASL's mongo-style `$in`): its order grants nothing.
        return [k, k === "$in" && Array.isArray(v) ? [...v].sort(byJson) : v];
      }),
  );
}

const byJson = (a: unknown, b: unknown) => {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * Permission rules in one spelling, whoever wrote them, so that equal permissions never show a
 * change (the vendor Terraform provider's drift, its issues #263 and #348). What the service does
 * to the rules it stores (docs/service-api.md §19; `ee/services/permission/permission-fns.ts`
 * `unpackPermissions`, CASL's `unpackRules`): a subject list answers its first subject, a single
 * action a list of one, and `inverted` is filled in (`false`). Actions are a set (sorted, once
 * each); conditions' keys, operators and `$in` values are sorted; empty conditions and
 * `inverted: false` are left out. A bare condition value (`environment: "prod"`) is kept as it is:
 * the service stores and answers it so (its schema takes a string or an operator object and does
 * not rewrite one into the other), so it stays apart from `{ $eq: "prod" }`. The order of the
 * rules is kept: an inverted rule overrides the rules before it.
 */
export function normalPermissions(rules: readonly unknown[]): NormalPermission[] {
  return rules.map((r: unknown) => {
    if (!isPlainObject(r)) return r as NormalPermission;
    const subject = Array.isArray(r.subject) ? String(r.subject[0]) : String(r.subject);
    const actions = Array.isArray(r.action) ? r.action.map(String) : [String(r.action)];
    const rule: NormalPermission = { subject, action: [...new Set(actions)].sort() };
    if (isPlainObject(r.conditions) && Object.keys(r.conditions).length > 0)
      rule.conditions = normalCondition(r.conditions) as Plain;
    if (r.inverted === true) rule.inverted = true;
    return rule;
  });
}

/** A project's roles, built-in and custom, in one call (without permissions), shared by a refresh's reads. */
const roleReads = familyReads<ProjectRoleRecord>((client, projectId) => client.projectRoles.list(projectId));

const isBuiltIn = (slug: string) => (reservedProjectRoleSlugs as readonly string[]).includes(slug);

/** The role with this slug and its permissions; undefined when gone (or another role holds the slug now, `id` given). */
async function readBySlug(
  client: SecretOpsClient,
  projectId: string,
  slug: string,
  id?: string,
): Promise<Remote | undefined> {
  const role = await orUndefinedOn404(client.projectRoles.getBySlug(projectId, slug));
  if (!role || (id !== undefined && role.id !== id)) return undefined;
  return { ...role, projectId: role.projectId ?? projectId };
}

/**
 * A role's refresh: the project's list, one call shared by every role of the run; a role whose
 * `updatedAt` is the one in state kept its permissions (the list has none), any other is read
 * by its slug. An import (no slug in state) names the role by its slug.
 */
async function readRole(client: SecretOpsClient, id: string, outs: Plain): Promise<Remote | undefined> {
  const projectId = String(outs.projectId);
  const importing = typeof outs.slug !== "string";
  if (importing && isBuiltIn(id))
    throw new Error(`import id: "${id}" is a built-in role of the project, which is not a ProjectRole to manage`);
  const listed = await roleReads.at(client).objects(projectId);
  const role = importing ? [...(listed?.values() ?? [])].find((r) => r.slug === id) : listed?.get(id);
  if (role) {
    if (!importing && role.updatedAt === outs.updatedAt && Array.isArray(outs.permissions))
      return { ...role, projectId, permissions: outs.permissions as Remote["permissions"] };
    return readBySlug(client, projectId, role.slug, role.id);
  }
  // Not in the list (or no list): the role's own read tells gone from hidden.
  return importing ? readBySlug(client, projectId, id) : readBySlug(client, projectId, String(outs.slug), id);
}

/** After a write: the project's listed roles are stale. */
const wrote = (client: SecretOpsClient, projectId: string) => roleReads.at(client).invalidate(projectId);

/**
 * A custom role of a project: its slug, name, description and permissions in the service's v2
 * shape (subject, actions, conditions, inverted). A built-in role's slug (`admin`, `member`,
 * `viewer`, `no-access`, …) is refused at preview. Slug, name, description and permissions change
 * in place (one PATCH, same id); a change of `projectId` replaces it. Permissions are kept in one
 * spelling: equal permissions are no change, whatever the order of their actions, conditions and
 * operators, and whatever defaults the service fills in (`inverted: false`). A refresh lists
 * the project's roles once for every role, and reads a role by its slug only when it changed.
 * Custom roles need the RBAC feature of a licensed plan. `pulumi import` takes `<projectId>/<slug>`.
 */
export const projectRoleDefinition = defineResource<Remote, Args, z.output<typeof options>>()({
  type: "ProjectRole",
  importPrefix: "projectId",
  importKey: "slug",
  schemas: () => ({ args, update: ProjectRoleUpdateSchema }),
  options,
  // Another project's role takes the same slug: the new one is made before the old one goes.
  deleteBeforeReplace: false,
  absentMeans: { description: null },
  reported: {
    projectId: (r) => r.projectId,
    slug: (r) => r.slug,
    name: (r) => r.name,
    description: (r) => r.description ?? undefined,
    permissions: (r) => normalPermissions(r.permissions ?? []),
  },
  computed: {
    createdAt: (r) => r.createdAt,
    updatedAt: (r) => r.updatedAt,
  },
  canonical: (a) => ({ ...a, permissions: normalPermissions(a.permissions) }),
  exclusive: uniqueIn("ProjectRole", "slug", ["projectId"], "in one project"),

  async create(client, { projectId, ...body }) {
    try {
      const role = await client.projectRoles.create(projectId, body);
      return { ...role, projectId: role.projectId ?? projectId };
    } finally {
      wrote(client, projectId);
    }
  },
  find: (client, a) => readBySlug(client, a.projectId, a.slug),
  read: (client, id, outs) => readRole(client, id, outs),
  async update(client, id, patch, outs) {
    try {
      const role = await client.projectRoles.update(outs.projectId, id, patch);
      return { ...role, projectId: role.projectId ?? outs.projectId };
    } finally {
      wrote(client, outs.projectId);
    }
  },
  async delete(client, id, outs) {
    try {
      await client.projectRoles.delete(outs.projectId, id);
    } finally {
      wrote(client, outs.projectId);
    }
  },
});
