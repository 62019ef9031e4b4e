import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  CertificateProfile as RemoteProfile,
  CertificateProfileCreateSchema,
  acmeConfig,
  apiConfig,
  certificateDefaults,
  enrollmentTypeOf,
  enrollmentTypes,
  estConfig,
  externalConfigs,
  missingEnrollmentConfig,
  scepConfig,
} from "../sdk/schemas";
import { orUndefinedOn404 } from "./not-found";
import { DeepInput, TYPE_MODULE, registerProps, serializedProvider, withSecretOutputs } from "./resource";
import { Family } from "./scaffold";

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

/** A CA-issued profile: `caId` is required. Changing `caId` replaces the profile. */
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

const schema = CertificateProfileCreateSchema.superRefine((p, ctx) => {
  const missing = missingEnrollmentConfig(p as never);
  if (missing) ctx.addIssue({ code: "custom", path: [enrollmentTypes[p.enrollmentType].configKey], message: missing });
});

export const certificateProfileFamily: Family<RemoteProfile> = {
  name: "CertificateProfile",
  schema: () => schema,
  options,
  replaceOnChange: ["projectId", "certificatePolicyId", "caId"],
  deleteBeforeReplace: true,
  secretPaths: () => ["estConfig.passphrase", "scepConfig.challengePassword"],
  // The service's update body takes `description: null` to clear it.
  clearable: { description: null, defaults: null },
  project: (p) => {
    // Only the config of the current enrollment type is the profile's; the server keeps others.
    // An enrollment type this package does not know has no config key here.
    const configKey = enrollmentTypeOf(p)?.configKey;
    const config = configKey && p[configKey];
    const { directoryUrl: _computed, ...acme } = (configKey === "acmeConfig" && p.acmeConfig) || {};
    return {
      projectId: p.projectId,
      certificatePolicyId: p.certificatePolicyId,
      slug: p.slug,
      enrollmentType: p.enrollmentType,
      issuerType: p.issuerType,
      caId: p.caId,
      description: p.description === "" ? null : p.description,
      ...(configKey && { [configKey]: configKey === "acmeConfig" ? (p.acmeConfig ? acme : null) : config }),
      externalConfigs: p.externalConfigs,
      defaults: p.defaults,
    };
  },
  computed: (p) => ({
    acmeDirectoryUrl: p.acmeConfig?.directoryUrl,
    estConfigId: p.estConfigId,
    apiConfigId: p.apiConfigId,
    acmeConfigId: p.acmeConfigId,
    scepConfigId: p.scepConfigId,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  }),

  create: (client, args) => client.certificateProfiles.create(args as never),
  findExisting: (client, args) =>
    orUndefinedOn404(client.certificateProfiles.getBySlug(args.slug as string, args.projectId as string)),
  read: (client, id) => orUndefinedOn404(client.certificateProfiles.get(id)),
  update: (client, id, patch) => client.certificateProfiles.update(id, patch as never),
  async delete(client, id) {
    await client.certificateProfiles.delete(id);
  },
};

const outputNames = [
  "projectId",
  "certificatePolicyId",
  "slug",
  "enrollmentType",
  "issuerType",
  "caId",
  "description",
  "estConfig",
  "apiConfig",
  "acmeConfig",
  "scepConfig",
  "externalConfigs",
  "defaults",
  "acmeDirectoryUrl",
  "estConfigId",
  "apiConfigId",
  "acmeConfigId",
  "scepConfigId",
  "createdAt",
  "updatedAt",
] as const;
/** Config objects that hold a secret are secret as a whole in state and in previews. */
const secretArgs = ["estConfig", "scepConfig"] as const;

/**
 * A certificate profile: a named template for issuing certificates. Replaced when `projectId`,
 * `certificatePolicyId` or `caId` changes (delete first: slugs are unique per project).
 */
export class CertificateProfile extends pulumi.dynamic.Resource {
  declare readonly projectId: pulumi.Output<string>;
  declare readonly certificatePolicyId: pulumi.Output<string>;
  declare readonly slug: pulumi.Output<string>;
  declare readonly enrollmentType: pulumi.Output<"api" | "est" | "acme" | "scep">;
  declare readonly issuerType: pulumi.Output<"ca" | "self-signed">;
  declare readonly caId: pulumi.Output<string | null>;
  declare readonly description: pulumi.Output<string | null>;
  declare readonly apiConfig: pulumi.Output<Record<string, unknown> | undefined>;
  declare readonly acmeConfig: pulumi.Output<Record<string, unknown> | undefined>;
  /** Without the passphrase, which is never returned. */
  declare readonly estConfig: pulumi.Output<Record<string, unknown> | undefined>;
  /** Without the challenge password, which is never returned. */
  declare readonly scepConfig: pulumi.Output<Record<string, unknown> | undefined>;
  declare readonly externalConfigs: pulumi.Output<Record<string, unknown> | null>;
  declare readonly defaults: pulumi.Output<Record<string, unknown> | null>;
  /** ACME enrollment: the directory URL ACME clients use (computed by the service). */
  declare readonly acmeDirectoryUrl: pulumi.Output<string | undefined>;
  declare readonly estConfigId: pulumi.Output<string | null>;
  declare readonly apiConfigId: pulumi.Output<string | null>;
  declare readonly acmeConfigId: pulumi.Output<string | null>;
  declare readonly scepConfigId: pulumi.Output<string | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: CertificateProfileArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      serializedProvider("CertificateProfile"),
      name,
      registerProps(args, secretArgs, outputNames),
      withSecretOutputs(opts, secretArgs),
      TYPE_MODULE,
      "CertificateProfile",
    );
  }
}
