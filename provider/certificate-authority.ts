import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type InternalCa as RemoteCa,
  InternalCaCreateSchema,
  InternalCaUpdateSchema,
  caStatuses,
  hasSubject,
  internalCaConfigurationFields,
} from "../sdk/schemas";
import type { InternalCaCreate, SecretOpsClient } from "../sdk";
import { SettleFailure, defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { uniqueIn } from "./program-keys";
import { type ArgsOf, type ArgsWithout, type DeepInput } from "./inputs";
import { familyReads } from "./shared-reads";

const PENDING = "pending-certificate";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing CA with this name in the project instead of failing. Default false. */
  adoptExisting: z.boolean().default(false),
});

type ServiceConfiguration = InternalCaCreate["configuration"];

/**
 * The configuration as a program declares it: without `notBefore` (the service reports the start
 * of the certificate it made, which a program cannot know before), and with `notAfter` required
 * (a root without one stays `pending-certificate` and never issues; an intermediate's signature
 * needs it).
 */
const configuration = internalCaConfigurationFields
  .omit({ notBefore: true })
  .extend({ notAfter: internalCaConfigurationFields.shape.notAfter.unwrap() })
  .refine(...hasSubject)
  .superRefine((c, ctx) => {
    if (c.type === "intermediate" && !c.parentCaId)
      ctx.addIssue({
        code: "custom",
        path: ["parentCaId"],
        message: "is required for an intermediate CA (the CA that signs it)",
      });
    if (c.type === "root" && c.parentCaId)
      ctx.addIssue({
        code: "custom",
        path: ["parentCaId"],
        message: "must not be set for a root CA (it signs itself)",
      });
  });

const args = InternalCaCreateSchema.extend({
  configuration,
  /** `active` (default) or `disabled`. Changing it updates in place. */
  status: z
    .enum(caStatuses)
    .refine((s): boolean => s !== PENDING, {
      error: `must be "active" or "disabled" (a CA waiting for its certificate is ${PENDING} by itself)`,
    })
    .default("active"),
});
type Args = z.output<typeof args>;

/** The args of an internal CA: the create body's schema (see `configuration` above) and the options'. */
export type CertificateAuthorityArgs = ArgsWithout<InternalCaCreate, "configuration" | "status"> &
  ArgsOf<z.input<typeof options>> & {
    /** `active` (default) or `disabled`. Changing it updates in place. */
    status?: pulumi.Input<"active" | "disabled">;
    /**
     * The CA's subject, key and lifetime. Changing it replaces the CA. `notAfter` is required; the
     * certificate starts when the CA is made. An intermediate names its signing CA in `parentCaId`.
     */
    configuration: DeepInput<
      Omit<ServiceConfiguration, "notBefore" | "notAfter"> & {
        /** End of validity, an ISO 8601 date-time (`2036-01-01T00:00:00Z`); the CA starts when it is made. */
        notAfter: string;
      }
    >;
  };

/** A date as one spelling: the service may write `…00.000Z` for `…00Z`. */
const isoDate = (d: string | null | undefined) => (d ? new Date(d).toISOString() : d);

/** The configuration as the args spell it: what the service reports of the declared fields. */
function reportedConfiguration(ca: RemoteCa) {
  const c = ca.configuration;
  if (!c) return undefined;
  return {
    type: c.type,
    friendlyName: c.friendlyName,
    commonName: c.commonName ?? "",
    organization: c.organization ?? "",
    ou: c.ou ?? "",
    country: c.country ?? "",
    province: c.province ?? "",
    locality: c.locality ?? "",
    notAfter: isoDate(c.notAfter),
    maxPathLength: c.maxPathLength,
    keyAlgorithm: c.keyAlgorithm,
    parentCaId: c.parentCaId,
  };
}

/** A project's internal CAs, one read. */
const listCas = (client: SecretOpsClient, projectId: string) => client.certificateAuthorities.list(projectId);

/** An X.509 time holds whole seconds: the end of the parent's certificate as the service reads it. */
const certificateTime = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/**
 * Why the parent would refuse to sign the intermediate `a` declares, found before the create
 * writes anything (the signature comes after it): the service's refusals of `sign-intermediate`
 * (docs/service-api.md §13) as a field of the program and its rule. Undefined when it signs.
 */
async function parentRefusal(client: SecretOpsClient, c: Args["configuration"]): Promise<string | undefined> {
  const parentId = c.parentCaId;
  if (c.type !== "intermediate" || !parentId) return undefined;
  const parent = await orUndefinedOn404(client.certificateAuthorities.get(parentId));
  if (!parent) return `configuration.parentCaId: there is no internal CA ${parentId} to sign this one`;
  const p = parent.configuration;
  const named = `the parent CA "${parent.name}"`;
  if (parent.status === "disabled") return `configuration.parentCaId: ${named} is disabled and signs nothing`;
  if (parent.status === PENDING) return `configuration.parentCaId: ${named} has no certificate yet to sign with`;
  const pathLength = p?.maxPathLength ?? -1;
  if (pathLength === 0) return `configuration.parentCaId: ${named} has a path length of 0 and signs no CA`;
  if (pathLength > 0 && (c.maxPathLength === -1 || c.maxPathLength >= pathLength))
    return `configuration.maxPathLength: must be from 0 to ${pathLength - 1}, under the path length of ${named} (${pathLength})`;
  if (p?.notAfter && Date.parse(c.notAfter) > certificateTime(p.notAfter)) {
    const end = new Date(certificateTime(p.notAfter)).toISOString();
    return `configuration.notAfter: must not be after ${end}, the end of ${named}'s certificate (the service refuses: "notAfter date is after CA certificate's notAfter date")`;
  }
  return undefined;
}

/**
 * An intermediate waiting for its certificate gets it from its parent: the CSR, the parent's
 * signature and the import (sdk/project-tree.ts). A failure leaves it in state, pending, for the
 * next `up` to sign again.
 */
async function signPending(client: SecretOpsClient, answered: RemoteCa): Promise<RemoteCa> {
  if (answered.configuration?.type !== "intermediate") return answered;
  // The create's answer echoes the status asked for, not the stored one (docs/service-api.md §13).
  const ca = await client.certificateAuthorities.get(answered.id);
  const c = ca.configuration;
  if (ca.status !== PENDING || !c?.parentCaId || !c.notAfter) return ca;
  try {
    await client.certificateAuthorities.signIntermediate(ca.id, c.parentCaId, {
      notAfter: c.notAfter,
      maxPathLength: c.maxPathLength ?? -1,
    });
  } catch (e) {
    throw new SettleFailure(
      `the intermediate CA "${ca.name}" exists but its parent CA ${c.parentCaId} did not sign it ` +
        `(${e instanceof Error ? e.message : String(e)}); it stays ${PENDING} and the next \`pulumi up\` signs it again`,
      ca,
    );
  }
  return client.certificateAuthorities.get(ca.id);
}

/**
 * An internal certificate authority of a project: a root (self-signed) or an intermediate signed by
 * its `parentCaId`, which is then signed as part of its create. Certificate profiles issue from it
 * (`caId`). Replaced when `projectId`, `name` or `configuration` changes (delete first: names are
 * unique in a project).
 */
export const certificateAuthorityDefinition = defineResource<RemoteCa, Args, z.output<typeof options>>()({
  type: "CertificateAuthority",
  schemas: () => ({ args, update: InternalCaUpdateSchema }),
  options,
  // Names are unique in a project.
  deleteBeforeReplace: true,
  canonical: (a) => ({
    ...a,
    configuration: { ...a.configuration, notAfter: new Date(a.configuration.notAfter).toISOString() },
  }),
  reported: {
    projectId: (c) => c.projectId,
    name: (c) => c.name,
    status: (c) => c.status,
    configuration: reportedConfiguration,
  },
  computed: {
    /** The distinguished name the subject fields make. */
    dn: (c) => c.configuration?.dn,
    serialNumber: (c) => c.configuration?.serialNumber,
    activeCaCertId: (c) => c.configuration?.activeCaCertId,
    /** The start of the CA certificate's validity. */
    notBefore: (c) => isoDate(c.configuration?.notBefore),
    createdAt: (c) => c.createdAt,
    updatedAt: (c) => c.updatedAt,
  },
  exclusive: uniqueIn("CertificateAuthority", "name", ["projectId"], "in one project"),
  jobs: {
    settle: (client, remote) => signPending(client, remote),
    resume: {
      needed: (outs) => outs.status === PENDING,
      run: async (client, id) => client.certificateAuthorities.get(id),
    },
  },

  async create(client, a) {
    const refusal = await parentRefusal(client, a.configuration);
    if (refusal) throw new Error(refusal);
    return client.certificateAuthorities.create(a);
  },
  find: async (client, a) => (await listCas(client, a.projectId)).find((c) => c.name === a.name),
  read: (client, id) => orUndefinedOn404(client.certificateAuthorities.get(id)),
  listed: { scopeOf: (outs) => outs.projectId, reads: familyReads(listCas) },
  // A pending intermediate becomes active by its signature (`jobs`), not by a PATCH.
  update: (client, id, patch, outs) =>
    outs.status === PENDING && patch.status === "active"
      ? client.certificateAuthorities.get(id)
      : client.certificateAuthorities.update(id, { status: patch.status }),
  async delete(client, id) {
    await client.certificateAuthorities.delete(id);
  },
});
