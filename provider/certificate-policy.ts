import { z } from "zod";
import {
  type CertificatePolicy as RemotePolicy,
  CertificatePolicyCreateSchema,
  CertificatePolicyUpdateSchema,
  certificatePolicyFieldNames,
  certificatePolicyRules,
} from "../sdk/schemas";
import type { CertificatePolicyCreate, SecretOpsClient } from "../sdk";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { uniqueIn } from "./program-keys";
import { type ArgsOf } from "./inputs";
import { familyReads } from "./shared-reads";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing policy with this name in the project instead of failing. Default false. */
  adoptExisting: z.boolean().default(false),
});

/** The args of a certificate policy: the create body's schema and the options'. */
export type CertificatePolicyArgs = ArgsOf<CertificatePolicyCreate> & ArgsOf<z.input<typeof options>>;

type Args = z.output<typeof CertificatePolicyCreateSchema>;

/** The service's largest page of policies. */
const PAGE = 100;

/** Every policy of a project, page by page (each page one read). */
async function listPolicies(client: SecretOpsClient, projectId: string): Promise<RemotePolicy[]> {
  const all: RemotePolicy[] = [];
  for (;;) {
    const page = await client.certificatePolicies.list({ projectId, offset: all.length, limit: PAGE });
    all.push(...page.certificatePolicies);
    if (page.certificatePolicies.length < PAGE || all.length >= page.totalCount) return all;
  }
}

/** The project's policy with this name: the list's search matches names containing it. */
async function findByName(client: SecretOpsClient, projectId: string, name: string) {
  const page = await client.certificatePolicies.list({ projectId, search: name, limit: PAGE });
  return page.certificatePolicies.find((p) => p.name === name);
}

/** The rule fields: each cleared with null when the program stops declaring it (the PATCH writes what it is given). */
const RULES = certificatePolicyFieldNames.filter((k) => k !== "description");

/**
 * A certificate policy of a project: the rules (subject, SANs, key usages, algorithms, validity)
 * the certificates of the profiles naming it (`certificatePolicyId`) follow. Updated in place,
 * name included; replaced when `projectId` changes. The service refuses to delete a policy a
 * profile uses: delete the profile first (a profile naming the policy's `id` output is).
 */
export const certificatePolicyDefinition = defineResource<RemotePolicy, Args, z.output<typeof options>>()({
  type: "CertificatePolicy",
  schemas: () => ({
    args: CertificatePolicyCreateSchema,
    update: CertificatePolicyUpdateSchema,
    rules: certificatePolicyRules,
  }),
  options,
  // The service stores a policy whose name is taken under another name instead of refusing it
  // (docs/service-api.md §14): a create looks for the name first.
  renamesTakenNames: true,
  // A replacement moves the policy to another project, where its name may be free.
  deleteBeforeReplace: true,
  absentMeans: Object.fromEntries(RULES.map((k) => [k, null])),
  reported: {
    projectId: (p) => p.projectId,
    name: (p) => p.name,
    description: (p) => p.description,
    subject: (p) => p.subject,
    sans: (p) => p.sans,
    keyUsages: (p) => p.keyUsages,
    extendedKeyUsages: (p) => p.extendedKeyUsages,
    algorithms: (p) => p.algorithms,
    validity: (p) => p.validity,
    basicConstraints: (p) => p.basicConstraints,
  },
  computed: {
    createdAt: (p) => p.createdAt,
    updatedAt: (p) => p.updatedAt,
  },
  exclusive: uniqueIn("CertificatePolicy", "name", ["projectId"], "in one project"),

  create: (client, a) => client.certificatePolicies.create(a),
  find: (client, a) => findByName(client, a.projectId, a.name),
  read: (client, id) => orUndefinedOn404(client.certificatePolicies.get(id)),
  listed: { scopeOf: (outs) => outs.projectId, reads: familyReads(listPolicies) },
  async update(client, id, patch, outs) {
    // A rename to a name taken would be stored under another name, not refused: refuse it here.
    const taken = patch.name === undefined ? undefined : await findByName(client, outs.projectId, patch.name);
    if (taken && taken.id !== id)
      throw new Error(
        `name: the project already has a certificate policy named "${patch.name}" (id ${taken.id}), and the ` +
          `service would store this one under another name; choose another name`,
      );
    return client.certificatePolicies.update(id, patch);
  },
  async delete(client, id) {
    await client.certificatePolicies.delete(id);
  },
});
