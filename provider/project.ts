import { z } from "zod";
import { type Project as RemoteProject, ProjectCreateSchema } from "../sdk/schemas";
import type { ProjectCreate, SecretOpsClient } from "../sdk";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { type ArgsOf } from "./inputs";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing project with this slug instead of failing. With the TypeScript classes (dynamic providers), which `pulumi import` cannot import, this is how an object made elsewhere is taken over; through the native provider, `pulumi import` works too. Default false. */
  adoptExisting: z.boolean().default(false),
});

/** The args of a project: the create body's schema and the options'. */
export type ProjectArgs = ArgsOf<ProjectCreate> & ArgsOf<z.input<typeof options>>;

type Args = z.output<typeof ProjectCreateSchema>;

/**
 * What a PATCH changes, under the args' names: the PATCH body calls `projectName` and
 * `projectDescription` `name` and `description` (docs/service-api.md §10). The slug takes the
 * create body's rule, which is narrower than the PATCH's.
 */
const updatable = ProjectCreateSchema.pick({
  projectName: true,
  projectDescription: true,
  slug: true,
  hasDeleteProtection: true,
}).partial();

/** A project found by slug, else by a name no other project of the caller has. */
async function findProject(client: SecretOpsClient, args: Args): Promise<RemoteProject | undefined> {
  if (args.slug !== undefined) return orUndefinedOn404(client.projects.getBySlug(args.slug));
  const named = (await client.projects.list({ type: args.type })).filter((p) => p.name === args.projectName);
  return named.length === 1 ? named[0] : undefined;
}

/**
 * A project: what every environment, folder, secret, sync, rotation, CA and profile belongs to.
 * Its template's environments (by default `dev`, `staging` and `prod`) come with it; declare them
 * as `ProjectEnvironment`s to manage them. Deleting it deletes everything in it at the service
 * (unless `hasDeleteProtection`). Replaced when `type` changes (delete first: slugs are unique).
 */
export const projectDefinition = defineResource<RemoteProject, Args, z.output<typeof options>>()({
  type: "Project",
  schemas: () => ({ args: ProjectCreateSchema, update: updatable }),
  options,
  // The service never reports these, nor changes them after the create (docs/service-api.md §10).
  createOnly: ["template", "shouldCreateDefaultEnvs", "kmsKeyId"],
  // The slug is unique in the organization.
  deleteBeforeReplace: true,
  // The service keeps no description as an empty one; the PATCH takes "" to clear it.
  absentMeans: { projectDescription: "" },
  reported: {
    projectName: (p) => p.name,
    projectDescription: (p) => p.description ?? "",
    slug: (p) => p.slug,
    type: (p) => p.type,
    hasDeleteProtection: (p) => p.hasDeleteProtection ?? false,
  },
  computed: {
    orgId: (p) => p.orgId,
    createdAt: (p) => p.createdAt,
    updatedAt: (p) => p.updatedAt,
  },

  create: (client, args) => client.projects.create(args),
  find: findProject,
  read: (client, id) => orUndefinedOn404(client.projects.get(id)),
  update: (client, id, patch) =>
    client.projects.update(id, {
      name: patch.projectName,
      description: patch.projectDescription,
      slug: patch.slug,
      hasDeleteProtection: patch.hasDeleteProtection,
    }),
  async delete(client, id) {
    await client.projects.delete(id);
  },
});
