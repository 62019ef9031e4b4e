import { z } from "zod";
import {
  type CertificateProfile as RemoteProfile,
  type CertificateProfileCreate,
  type EnrollmentType,
  acmeConfig,
  apiConfig,
  certificateProfileOperations,
  enrollmentTypeNames,
  enrollmentTypeOf,
  enrollmentTypes,
  estConfig,
  scepConfig,
} from "../sdk/schemas";
import type { Override, SecretOpsClient } from "../sdk";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { familyReads } from "./shared-reads";
import { type Plain, isPlainObject } from "./values";
import { type ArgsOf } from "./inputs";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing profile with this slug in the project instead of failing. With the TypeScript classes (dynamic providers), which `pulumi import` cannot import, this is how an object made elsewhere is taken over; through the native provider, `pulumi import` works too. Default false. */
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

/** What the service computes in a config object: outputs of their own, or nothing to compare. */
const COMPUTED_CONFIG_FIELDS = ["id", "directoryUrl", "scepEndpointUrl", "challengeEndpointUrl"];

/**
 * A config object as an arg: only the config of the profile's current enrollment type is the
 * profile's (the server keeps the others); without what the service computes (its id, ACME's
 * `directoryUrl`), and without a field at the value the service stores when it is not sent, which
 * the args leave out the same way (`serviceDefaults`, sdk/schemas/certificate-profiles.ts).
 */
const currentConfig = (key: ConfigKey) => (p: RemoteProfile) => {
  const row = enrollmentTypeOf(p);
  if (row?.configKey !== key) return undefined;
  const config = p[key];
  if (!config) return config;
  const reported = Object.entries(config).filter(([k, v]) => !COMPUTED_CONFIG_FIELDS.includes(k) && v !== null);
  return withoutServiceDefaults(Object.fromEntries(reported), row.serviceDefaults);
};

/** The id of the config object of the profile's enrollment type, if it has one. */
const configIdOf = (p: RemoteProfile): string | null | undefined =>
  ({ api: p.apiConfigId, est: p.estConfigId, acme: p.acmeConfigId, scep: p.scepConfigId })[p.enrollmentType];

/** A config object without the fields at the value the service stores when they are not sent. */
const withoutServiceDefaults = (config: object, defaults: Readonly<Record<string, unknown>>): Plain =>
  Object.fromEntries(Object.entries(config).filter(([k, v]) => v !== defaults[k]));

/** Each config object's schema: its fields' defaults are what a create that sends none stores. */
const configSchemas = { apiConfig, estConfig, acmeConfig, scepConfig } as const satisfies Record<ConfigKey, unknown>;

/**
 * A config object as the service holds it when the create sent none of its fields but its secrets:
 * each field at its schema's default, as `check` makes it, without those at the value the service
 * stores when they are not sent (as `reported` leaves them out).
 */
function configAtDefaults(row: Rows[EnrollmentType]): Plain {
  const fields = Object.entries(configSchemas[row.configKey].shape).flatMap(([k, field]) => {
    const absent = (field as z.ZodType).safeParse(undefined);
    return absent.success && absent.data !== undefined ? [[k, absent.data] as const] : [];
  });
  return withoutServiceDefaults(Object.fromEntries(fields), row.serviceDefaults);
}

/**
 * The config object state from earlier releases lacks: their create and PATCH read the config from
 * the write's answer, which carries only the config's id (docs/service-api.md §4), so their state
 * holds `estConfigId` and no `estConfig`. It is taken as at its defaults: a profile whose program
 * sets none but its secrets shows no change; one that sets others sends them again once, and its
 * state holds the config from then on (a refresh records the service's at once).
 */
function unrecordedConfig(outs: Plain): Plain {
  const type = outs.enrollmentType;
  if (typeof type !== "string" || !(type in enrollmentTypes)) return {};
  const row = enrollmentTypes[type as EnrollmentType];
  const configId = outs[`${type}ConfigId`];
  if (outs[row.configKey] !== undefined && outs[row.configKey] !== null) return {};
  return typeof configId === "string" ? { [row.configKey]: configAtDefaults(row) } : {};
}

/**
 * The profile after a write: create and update answer with the profile's row alone, not its config
 * objects (docs/service-api.md §4), so the config is what the write sent, merged into the one the
 * profile had (`previous`, its last outputs), as the service merges it.
 */
function withWrittenConfig(remote: RemoteProfile, sent: Plain, previous: Plain = {}): RemoteProfile {
  const row = enrollmentTypeOf(remote);
  if (!row || remote[row.configKey] || !configIdOf(remote)) return remote;
  const [before, given] = [previous[row.configKey], sent[row.configKey]];
  const written: Plain = { ...(isPlainObject(before) ? before : {}), ...(isPlainObject(given) ? given : {}) };
  for (const f of row.secretFields) delete written[f];
  return { ...remote, [row.configKey]: written };
}

/**
 * A PATCH of an ACME or SCEP config object: every field the service stores a default for is sent,
 * at the declared value or the default, because the service keeps a field a PATCH leaves out (so a
 * field back at its default would otherwise never get there). (An EST `caChain` is never cleared by
 * the service, which keeps the stored one for an empty value.)
 */
function withServiceDefaults(patch: Partial<ProfileArgs>): Partial<ProfileArgs> {
  const { acme, scep } = enrollmentTypes;
  return {
    ...patch,
    ...(patch.acmeConfig && { acmeConfig: orDefaults(patch.acmeConfig, acme.serviceDefaults) }),
    ...(patch.scepConfig && { scepConfig: orDefaults(patch.scepConfig, scep.serviceDefaults) }),
  };
}

/** `given` with each field it leaves undefined at its default. */
function orDefaults<T extends object>(given: T, defaults: Readonly<Record<string, unknown>>): T {
  const set = new Set(Object.entries(given).flatMap(([k, v]) => (v === undefined ? [] : [k])));
  return { ...given, ...Object.fromEntries(Object.entries(defaults).filter(([k]) => !set.has(k))) };
}

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

/**
 * A certificate profile: a named template for issuing certificates. Replaced when `projectId`,
 * `certificatePolicyId`, `caId`, `issuerType` or `enrollmentType` changes (delete first: slugs are
 * unique per project).
 */
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
  canonical: (args) => {
    const row = enrollmentTypes[args.enrollmentType];
    const config = args[row.configKey];
    return config ? { ...args, [row.configKey]: withoutServiceDefaults(config, row.serviceDefaults) } : args;
  },
  unrecorded: unrecordedConfig,
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

  async create(client, args) {
    const made = await client.certificateProfiles.create(args);
    // ACME's directory URL is computed by the service and only its read of one profile shows it.
    if (made.enrollmentType === "acme" && made.acmeConfigId) return client.certificateProfiles.get(made.id);
    return withWrittenConfig(made, args);
  },
  // The read by slug has no config objects: the read of one profile has (docs/service-api.md §4).
  async find(client, args) {
    const found = await orUndefinedOn404(client.certificateProfiles.getBySlug(args.slug, args.projectId));
    return found && orUndefinedOn404(client.certificateProfiles.get(found.id));
  },
  read: (client, id) => orUndefinedOn404(client.certificateProfiles.get(id)),
  listed: { scopeOf: (outs) => outs.projectId, reads: familyReads(listProfiles) },
  async update(client, id, patch, outs) {
    const updated = await client.certificateProfiles.update(id, withServiceDefaults(patch));
    return withWrittenConfig(updated, patch, outs);
  },
  async delete(client, id) {
    await client.certificateProfiles.delete(id);
  },
});
