import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type CertificateProfile as RemoteProfile,
  type CertificateProfileCreate,
  type EnrollmentType,
  certificateProfileOperations,
  enrollmentTypeNames,
  enrollmentTypeOf,
  enrollmentTypes,
} from "../sdk/schemas";
import type { Override, SecretOpsClient } from "../sdk";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { type ArgsOf, type ResourceOf, resourceClass } from "./program-side";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing profile with this slug in the project instead of failing. The import path for dynamic resources. Default false. */
  adoptExisting: z.boolean().default(false),
});

type Create = CertificateProfileCreate;
type Rows = typeof enrollmentTypes;
type ConfigKey = Rows[EnrollmentType]["configKey"];

/** One enrollment type and its config object, required or not as its row says. */
type Enrollment<T extends EnrollmentType> = T extends EnrollmentType
  ? Override<Pick<Create, "enrollmentType">, { enrollmentType: T }> &
      ArgsOf<
        Rows[T]["configRequired"] extends true
          ? Required<Pick<Create, Rows[T]["configKey"]>>
          : Pick<Create, Rows[T]["configKey"]>
      >
  : never;

/**
 * Issued by a CA of the project (`caId` required), or self-signed (no `caId`, API enrollment only),
 * with enrollment type `T`.
 */
type Issuer<T extends EnrollmentType> =
  | (Override<Pick<Create, "issuerType">, { issuerType: "ca" }> &
      ArgsOf<Required<Pick<Create, "caId">>> &
      Enrollment<T>)
  | (Required<Override<Pick<Create, "issuerType">, { issuerType: "self-signed" }>> & {
      caId?: never;
    } & Enrollment<Extract<T, "api">>);

/**
 * The args of a profile with enrollment type `T` (by default any): from the create body's schema,
 * its enrollment rows and the options' schema.
 */
export type CertificateProfileArgs<T extends EnrollmentType = EnrollmentType> = ArgsOf<
  Omit<Create, "enrollmentType" | "issuerType" | "caId" | ConfigKey>
> &
  ArgsOf<z.input<typeof options>> &
  Issuer<T>;

/** The secret fields of every enrollment type's config object, as arg paths (from the rows). */
const secretPaths = enrollmentTypeNames.flatMap((t) =>
  enrollmentTypes[t].secretFields.map((f) => `${enrollmentTypes[t].configKey}.${f}`),
);

/**
 * A config object as an arg: only the config of the profile's current enrollment type is the
 * profile's (the server keeps the others); ACME's computed `directoryUrl` is an output of its own.
 */
const currentConfig = (key: ConfigKey) => (p: RemoteProfile) => {
  if (enrollmentTypeOf(p)?.configKey !== key) return undefined;
  if (key !== "acmeConfig") return p[key];
  if (!p.acmeConfig) return null;
  const { directoryUrl: _computed, ...acme } = p.acmeConfig;
  return acme;
};

/** The service's largest page of profiles. */
const PAGE = 100;

/** Every profile of a project, page by page (each page one read). */
async function listProfiles(client: SecretOpsClient, projectId: string): Promise<RemoteProfile[]> {
  const all: RemoteProfile[] = [];
  for (;;) {
    const page = await client.certificateProfiles.list({ projectId, offset: all.length, limit: PAGE });
    all.push(...page.certificateProfiles);
    if (page.certificateProfiles.length < PAGE || all.length >= page.totalCount) return all;
  }
}

/** A profile's args and options as `check` made them. */
type ProfileArgs = z.output<typeof certificateProfileOperations.create.body>;
type ProfileOptions = z.output<typeof options>;

export const certificateProfileDefinition = defineResource<RemoteProfile, ProfileArgs, ProfileOptions>()({
  type: "CertificateProfile",
  schemas: () => ({
    args: certificateProfileOperations.create.body,
    update: certificateProfileOperations.update.body,
    rules: certificateProfileOperations.create.rules,
  }),
  options,
  // The PATCH takes `issuerType` but no `caId`, and the service's update keeps the stored CA: to
  // self-signed it then refuses the profile for having a CA, to `ca` for having none. It takes
  // `enrollmentType` too, but updates only the config object the profile already has and never
  // creates the new type's (services/certificate-profile/certificate-profile-service.ts,
  // updateProfile): an in-place switch would leave, say, an EST profile with no EST config.
  replaceOnChange: ["issuerType", "enrollmentType"],
  deleteBeforeReplace: true,
  secretPaths: { of: () => secretPaths, all: secretPaths },
  // The service's update body takes `description: null` to clear it.
  absentMeans: { description: null, defaults: null },
  reported: {
    projectId: (p) => p.projectId,
    certificatePolicyId: (p) => p.certificatePolicyId,
    slug: (p) => p.slug,
    enrollmentType: (p) => p.enrollmentType,
    issuerType: (p) => p.issuerType,
    caId: (p) => p.caId,
    description: (p) => (p.description === "" ? null : p.description),
    apiConfig: currentConfig("apiConfig"),
    acmeConfig: currentConfig("acmeConfig"),
    /** Without the passphrase, which is never returned. */
    estConfig: currentConfig("estConfig"),
    /** Without the challenge password, which is never returned. */
    scepConfig: currentConfig("scepConfig"),
    externalConfigs: (p) => p.externalConfigs,
    defaults: (p) => p.defaults,
  },
  computed: {
    /** ACME enrollment: the directory URL ACME clients use (computed by the service). */
    acmeDirectoryUrl: (p) => p.acmeConfig?.directoryUrl,
    estConfigId: (p) => p.estConfigId,
    apiConfigId: (p) => p.apiConfigId,
    acmeConfigId: (p) => p.acmeConfigId,
    scepConfigId: (p) => p.scepConfigId,
    createdAt: (p) => p.createdAt,
    updatedAt: (p) => p.updatedAt,
  },

  create: (client, args) => client.certificateProfiles.create(args),
  find: (client, args) => orUndefinedOn404(client.certificateProfiles.getBySlug(args.slug, args.projectId)),
  read: (client, id) => orUndefinedOn404(client.certificateProfiles.get(id)),
  listed: { projectOf: (outs) => outs.projectId, list: listProfiles },
  update: (client, id, patch) => client.certificateProfiles.update(id, patch),
  async delete(client, id) {
    await client.certificateProfiles.delete(id);
  },
});

/**
 * A certificate profile: a named template for issuing certificates. Replaced when `projectId`,
 * `certificatePolicyId`, `caId`, `issuerType` or `enrollmentType` changes (delete first: slugs are
 * unique per project).
 */
export const CertificateProfile = class CertificateProfile extends resourceClass<
  CertificateProfileArgs,
  typeof certificateProfileDefinition
>(certificateProfileDefinition) {} as unknown as CertificateProfileConstructor;
export type CertificateProfile = ResourceOf<typeof certificateProfileDefinition>;

/**
 * `new CertificateProfile(name, args)`: the enrollment type is inferred from `args`
 * (provider/program-side.ts, "kind-generic constructors").
 */
export interface CertificateProfileConstructor {
  new <T extends string = string>(
    name: string,
    args: T extends EnrollmentType
      ? CertificateProfileArgs<T> & { enrollmentType: T }
      : { enrollmentType: EnrollmentType },
    opts?: pulumi.CustomResourceOptions,
  ): CertificateProfile;
}
