import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type CertificateProfile as RemoteProfile,
  acmeConfig,
  apiConfig,
  certificateDefaults,
  certificateProfileOperations,
  enrollmentTypeNames,
  enrollmentTypeOf,
  enrollmentTypes,
  estConfig,
  externalConfigs,
  scepConfig,
} from "../sdk/schemas";
import { defineResource } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { type DeepInput, resourceClass } from "./program-side";

interface ProfileCommonArgs {
  /** The project (at least 1 character). Changing it replaces the profile. */
  projectId: pulumi.Input<string>;
  /** UUID of the certificate policy. Changing it replaces the profile. */
  certificatePolicyId: pulumi.Input<string>;
  /** 1 to 255 characters matching `^[a-z0-9-]+$`; unique in the project. Changing it updates in place. */
  slug: pulumi.Input<string>;
  /** At most 1000 characters; leaving it out clears it. */
  description?: pulumi.Input<string>;
  /** Only with an external CA; e.g. the ADCS `template`. */
  externalConfigs?: DeepInput<z.input<typeof externalConfigs>>;
  /** Defaults of issued certificates: `ttlDays` (positive whole days), subject fields, `keyAlgorithm`, `signatureAlgorithm`, `keyUsages`, `extendedKeyUsages`. */
  defaults?: DeepInput<z.input<typeof certificateDefaults>> | null;

  // Provider options: never sent to the service.
  /** Take over an existing profile with this slug in the project instead of failing. The import path for dynamic resources. Default false. */
  adoptExisting?: pulumi.Input<boolean>;
}

/** Enrollment by API: `apiConfig` is required (`autoRenew`, `renewBeforeDays` 1 to 30). */
interface ApiEnrollment {
  enrollmentType: "api";
  apiConfig: DeepInput<z.input<typeof apiConfig>>;
}
/** EST enrollment: `estConfig` is required; its `passphrase` is secret, hashed in state and never returned. */
interface EstEnrollment {
  enrollmentType: "est";
  estConfig: DeepInput<z.input<typeof estConfig>>;
}
/** ACME enrollment: `acmeConfig` is optional; `skipDnsOwnershipVerification` and `skipEabBinding` cannot both be true. */
interface AcmeEnrollment {
  enrollmentType: "acme";
  acmeConfig?: DeepInput<z.input<typeof acmeConfig>>;
}
/** SCEP enrollment: `scepConfig` is required; a static `challengePassword` (at least 8 characters) is secret. */
interface ScepEnrollment {
  enrollmentType: "scep";
  scepConfig: DeepInput<z.input<typeof scepConfig>>;
}

/** A CA-issued profile: `caId` is required. Changing `caId` or `issuerType` replaces the profile. */
interface CaIssuer {
  issuerType?: "ca";
  /** UUID of a certificate authority of the project. */
  caId: pulumi.Input<string>;
}
/** A self-signed profile: no `caId`, and only API enrollment. */
interface SelfSignedIssuer {
  issuerType: "self-signed";
  caId?: never;
}

export type CertificateProfileArgs = ProfileCommonArgs &
  ((CaIssuer & (ApiEnrollment | EstEnrollment | AcmeEnrollment | ScepEnrollment)) | (SelfSignedIssuer & ApiEnrollment));

const options = z.object({ adoptExisting: z.boolean().default(false) });

/** The secret fields of every enrollment type's config object, as arg paths (from the rows). */
const secretPaths = enrollmentTypeNames.flatMap((t) =>
  enrollmentTypes[t].secretFields.map((f) => `${enrollmentTypes[t].configKey}.${f}`),
);

type ConfigKey = (typeof enrollmentTypes)[keyof typeof enrollmentTypes]["configKey"];

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

export const certificateProfileDefinition = defineResource<RemoteProfile>()({
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
  clearable: { description: null, defaults: null },
  args: {
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

  create: (client, args) => client.certificateProfiles.create(args as never),
  find: (client, args) =>
    orUndefinedOn404(client.certificateProfiles.getBySlug(args.slug as string, args.projectId as string)),
  read: (client, id) => orUndefinedOn404(client.certificateProfiles.get(id)),
  update: (client, id, patch) => client.certificateProfiles.update(id, patch as never),
  async delete(client, id) {
    await client.certificateProfiles.delete(id);
  },
});

/**
 * A certificate profile: a named template for issuing certificates. Replaced when `projectId`,
 * `certificatePolicyId`, `caId`, `issuerType` or `enrollmentType` changes (delete first: slugs are
 * unique per project).
 */
export class CertificateProfile extends resourceClass<CertificateProfileArgs, typeof certificateProfileDefinition>(
  certificateProfileDefinition,
) {}
