import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ProjectEnvironment as RemoteEnvironment,
  ProjectEnvironmentCreateSchema,
  ProjectEnvironmentUpdateSchema,
  uuid,
} from "../sdk/schemas";
import type { ProjectEnvironmentCreate, SecretOpsClient } from "../sdk";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { uniqueIn } from "./program-keys";
import { type ArgsOf } from "./inputs";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /**
   * Take over the project's environment with this slug when it exists, instead of failing. Default
   * true: a project's template makes its environments (`dev`, `staging` and `prod` by default), so
   * declaring one of them manages it.
   */
  adoptExisting: z.boolean().default(true),
});

/** The args of an environment: the create body's schema, its project and the options'. */
export type ProjectEnvironmentArgs = ArgsOf<ProjectEnvironmentCreate> &
  ArgsOf<z.input<typeof options>> & {
    /** The project (UUID). Changing it replaces the environment. */
    projectId: pulumi.Input<string>;
  };

const args = ProjectEnvironmentCreateSchema.extend({ projectId: uuid });
type Args = z.output<typeof args>;

/** The project's environment with the slug: the project lists its environments, without their position. */
async function findEnvironment(client: SecretOpsClient, a: Args): Promise<RemoteEnvironment | undefined> {
  const project = await orUndefinedOn404(client.projects.get(a.projectId));
  const listed = project?.environments?.find((e) => e.slug === a.slug);
  return listed && orUndefinedOn404(client.projectEnvironments.get(a.projectId, listed.id));
}

/**
 * An environment of a project (`dev`, `prod`…), named by its slug wherever secrets are. An
 * environment the project's template made is taken over (`adoptExisting`, default true). Deleting
 * it deletes its folders and secrets at the service. Replaced when `projectId` changes.
 */
export const projectEnvironmentDefinition = defineResource<RemoteEnvironment, Args, z.output<typeof options>>()({
  type: "ProjectEnvironment",
  importPrefix: "projectId",
  schemas: () => ({ args, update: ProjectEnvironmentUpdateSchema }),
  options,
  // Moving to another project makes the new one first: slugs are unique per project only.
  deleteBeforeReplace: false,
  reported: {
    projectId: (e) => e.projectId,
    name: (e) => e.name,
    slug: (e) => e.slug,
    position: (e) => e.position,
  },
  computed: {
    createdAt: (e) => e.createdAt,
    updatedAt: (e) => e.updatedAt,
  },
  exclusive: uniqueIn("ProjectEnvironment", "slug", ["projectId"], "in one project"),
  // A new slug moves what is in it (provider/folder-moves.ts): its folders and secrets keep their ids.
  inTree: { holds: { kind: "environment", of: (v) => (typeof v.slug === "string" ? v.slug : undefined) } },

  create: (client, { projectId, ...body }) => client.projectEnvironments.create(projectId, body),
  find: findEnvironment,
  read: (client, id, outs) => orUndefinedOn404(client.projectEnvironments.get(outs.projectId, id)),
  update: (client, id, patch, outs) => client.projectEnvironments.update(outs.projectId, id, patch),
  async delete(client, id, outs) {
    await client.projectEnvironments.delete(outs.projectId, id);
  },
});
