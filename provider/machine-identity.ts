import { z } from "zod";
import type { IdentityCreate, MachineIdentityRecord, SecretOpsClient } from "../sdk";
import { SecretOpsApiError } from "../sdk/errors";
import {
  IdentityCreateSchema,
  IdentityUpdateSchema,
  ProjectIdentityCreateSchema,
  ProjectIdentityUpdateSchema,
  nonEmpty,
} from "../sdk/schemas";
import { commonOptions, defineResource } from "./definition";
import { type ArgsOf } from "./inputs";
import { orUndefinedOn404 } from "./not-found";
import type { Plain } from "./values";

/** Provider options: never sent to the service. */
const options = z.object({ ...commonOptions });

/** A project's own identity: the project's create body, and the project it belongs to. */
const projectArgs = ProjectIdentityCreateSchema.extend({
  /** The project whose own identity this is, instead of an organization's (`organizationId`). Changing it replaces the identity. */
  projectId: nonEmpty,
});

type OrgArgs = z.output<typeof IdentityCreateSchema>;
type ProjectArgs = z.output<typeof projectArgs>;
type Args = (OrgArgs & { projectId?: undefined }) | (ProjectArgs & { organizationId?: undefined; role?: undefined });

/**
 * The args of a machine identity: an organization's (`organizationId`, with its organization
 * `role`), or a project's own (`projectId`, no role), and the options'.
 */
export type MachineIdentityArgs = (ArgsOf<IdentityCreate> | ArgsOf<z.input<typeof projectArgs>>) &
  ArgsOf<z.input<typeof options>>;

/** A project's identity is read, written and deleted under its project's path. */
const isProjectIdentity = (values: { projectId?: unknown }): values is { projectId: string } =>
  typeof values.projectId === "string";

/** The service's words when a protected identity is deleted (identity-service.ts, `deleteIdentity`; docs/service-api.md §18). */
const PROTECTED = "Identity has delete protection";

/** The identity of this name, when exactly one has it (the service does not keep names unique). */
async function findByName(client: SecretOpsClient, a: Args): Promise<MachineIdentityRecord | undefined> {
  const all = isProjectIdentity(a)
    ? (await client.identities.listInProject(a.projectId, { search: a.name, limit: 1000 })).identities
    : await client.identities.list(a.organizationId!);
  const named = all.filter((i) => i.name === a.name);
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The PATCH body. The service applies `hasDeleteProtection` only when the body's `name` or the
 * flag itself is truthy (`updateIdentity`, docs/service-api.md §18): turning protection off alone
 * would be ignored, so the current name goes with it.
 */
function patchBody(patch: Plain, outs: Plain): Plain {
  const body = { ...patch };
  if (body.hasDeleteProtection === false && body.name === undefined) body.name = outs.name;
  return body;
}

/**
 * A machine identity: what an application, a CI job or a cluster logs in as. An organization's
 * (`organizationId`, with its organization `role`) or, with `projectId` instead, a project's own.
 * Renamed, its role, delete protection and metadata changed in place (one PATCH: same id, same
 * client ids); replaced when `organizationId` or `projectId` changes. The service refuses to
 * delete it while `hasDeleteProtection` is true. Its login methods are `IdentityAuth`s.
 * `pulumi import` takes an organization's identity by its id.
 */
export const machineIdentityDefinition = defineResource<MachineIdentityRecord, Args, z.output<typeof options>>()({
  type: "MachineIdentity",
  schemas: (args) =>
    isProjectIdentity(args) || args.projectId !== undefined
      ? { args: projectArgs, update: ProjectIdentityUpdateSchema }
      : { args: IdentityCreateSchema, update: IdentityUpdateSchema },
  options,
  // Names are not unique at the service: the new one is made before the old one goes.
  deleteBeforeReplace: false,
  reported: {
    name: (i) => i.name,
    // A project's identity has its organization's id too: only an organization's reports it as its scope.
    organizationId: (i) => (i.projectId ? undefined : (i.orgId ?? undefined)),
    projectId: (i) => i.projectId ?? undefined,
    role: (i) => (i.projectId ? undefined : i.role),
    hasDeleteProtection: (i) => i.hasDeleteProtection,
    metadata: (i) => i.metadata?.map(({ key, value }) => ({ key, value })),
  },
  computed: {
    orgId: (i) => i.orgId ?? undefined,
    authMethods: (i) => i.authMethods,
    createdAt: (i) => i.createdAt,
    updatedAt: (i) => i.updatedAt,
  },

  create(client, a) {
    if (!isProjectIdentity(a)) return client.identities.create(a);
    const { projectId, ...body } = a;
    return client.identities.createInProject(projectId, body);
  },
  find: (client, a) => findByName(client, a),
  read: (client, id, outs) =>
    orUndefinedOn404(
      isProjectIdentity(outs) ? client.identities.getInProject(outs.projectId, id) : client.identities.get(id),
    ),
  async update(client, id, patch, outs) {
    const body = patchBody(patch, outs);
    const updated = isProjectIdentity(outs)
      ? await client.identities.updateInProject(outs.projectId, id, body)
      : await client.identities.update(id, body);
    // The PATCH's answer has neither the role nor the login methods: the role sent is the one
    // stored, the methods are as they were.
    const authMethods = Array.isArray(outs.authMethods) ? (outs.authMethods as string[]) : undefined;
    return { authMethods, ...updated, role: (patch.role ?? outs.role) as string | undefined };
  },
  async delete(client, id, outs) {
    try {
      if (isProjectIdentity(outs)) await client.identities.deleteInProject(outs.projectId, id);
      else await client.identities.delete(id);
    } catch (e) {
      if (e instanceof SecretOpsApiError && e.status === 400 && e.message.includes(PROTECTED))
        throw new Error(
          `hasDeleteProtection: machine identity "${String(outs.name)}" (id ${id}) has delete protection, so the ` +
            `service refuses to delete it: set hasDeleteProtection: false and run up first, then delete it`,
        );
      throw e;
    }
  },
});
