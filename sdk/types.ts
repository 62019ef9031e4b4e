import type { z } from "zod";
import type {
  AppConnectionApp,
  RotationTypeSlug,
  SecretRotationCreate,
  SecretRotationUpdate,
  SecretSyncCreate,
  SecretSyncUpdate,
  SyncDestinationSlug,
  appConnectionCreateSchema,
  appConnectionKinds,
  appConnectionUpdateSchema,
  rotationTypes,
  syncDestinations,
} from "./schemas";

/**
 * Per-kind request types, derived from the shared kind tables and schemas (z.input), never
 * spelled out. The schema factories take the widened row interface, so `z.input` of their result
 * loses the per-kind detail (credentials, destinationConfig, parameters become `unknown` or
 * `Record<string, unknown>`); we put it back from the `as const` rows. The one exception is
 * marked below. Each type distributes over its slug, so `X<AnyKind>` (a union of slugs, as in
 * generic provider code) is the union of the per-kind types rather than `never`.
 */

/**
 * T with the types of R's keys put back, keeping T's keys, their optionality and their docs (the
 * JSDoc on the schema's fields): a homomorphic mapped type, where `Omit<T, K> & R` would drop the
 * docs of the keys it replaces.
 */
export type Override<T, R> = { [K in keyof T]: K extends keyof R ? R[K] : T[K] };
/** `Partial<Override<T, R>>` in one mapped type. */
type PartialOverride<T, R> = { [K in keyof T]?: K extends keyof R ? R[K] : T[K] };

/*
 * A kind's own object (a destination's config, a rotation type's parameters, a method's
 * credentials) is a homomorphic copy of its schema's `z.input` under a name of its own (`…Of`):
 * the compiler's messages then print `DestinationConfigOf<"github">` instead of every field, and
 * the fields keep their optionality and docs. The `…Input` types distribute over a union of kinds.
 */

type Kinds = typeof appConnectionKinds;
type Methods<A extends AppConnectionApp> = Kinds[A]["methods"];
type InputOf<T> = T extends z.ZodType ? z.input<T> : never;
type CredentialsSchema<A extends AppConnectionApp, M extends keyof Methods<A>> = InputOf<
  Methods<A>[M] extends { credentials: infer S } ? S : never
>;

/** The credentials object of method `M` of kind `A`, as sent. */
export type CredentialsOf<A extends AppConnectionApp, M extends keyof Methods<A>> = {
  [K in keyof CredentialsSchema<A, M>]: CredentialsSchema<A, M>[K];
};

/** The credentials object of one method of one kind, as sent. */
export type AppConnectionCredentials<
  A extends AppConnectionApp,
  M extends keyof Methods<A> = keyof Methods<A>,
> = M extends keyof Methods<A> ? CredentialsOf<A, M> : never;

/** A method's create body (name, description, projectId, …, method, credentials), from the factory's object branch. */
type CreateBody = z.input<Extract<ReturnType<typeof appConnectionCreateSchema>, z.ZodObject>>;

/** The methods of a kind (of each kind of a union of kinds). */
export type AppConnectionMethodName<A extends AppConnectionApp> = A extends AppConnectionApp
  ? keyof Methods<A> & string
  : never;

/**
 * POST /api/v1/app-connections/{app} body: one variant per method of the kind (of those named by
 * `M`, when given).
 */
export type AppConnectionCreateInput<A extends AppConnectionApp, M extends string = string> = A extends AppConnectionApp
  ? {
      [K in keyof Methods<A> & M]: Override<CreateBody, AppConnectionMethodFields<A, K>>;
    }[keyof Methods<A> & M]
  : never;

/** The fields of a connection's create body that depend on its kind and method. */
type AppConnectionMethodFields<A extends AppConnectionApp, M extends string> = {
  method: M;
  credentials: CredentialsOf<A, M & keyof Methods<A>>;
};

type UpdateBase = z.input<ReturnType<typeof appConnectionUpdateSchema>>;
type PatchSupport<A extends AppConnectionApp> = Kinds[A]["patchSupport"];
/** A PATCH flag as the kind's column of the 4.1 matrix allows it. */
type PatchFlag<S> = S extends "unsupported" ? never : S extends "only-false" ? false : boolean;

/**
 * PATCH /api/v1/app-connections/{app}/{id} body. The factory's `z.input` makes the matrix fields
 * required `unknown` (they are unions of z.undefined / z.literal / z.boolean), so the four matrix
 * fields are typed here from the kind's `patch` row. (Exception noted in the report: the schema
 * factory could be made generic to make this unnecessary.)
 */
export type AppConnectionUpdateInput<A extends AppConnectionApp> = A extends AppConnectionApp
  ? PartialOverride<
      UpdateBase,
      {
        credentials: AppConnectionCredentials<A>;
        isPlatformManagedCredentials: PatchFlag<PatchSupport<A>["isPlatformManagedCredentials"]>;
        isAutoRotationEnabled: PatchFlag<PatchSupport<A>["isAutoRotationEnabled"]>;
        gatewayId: PatchSupport<A>["gatewayId"] extends "uuid-or-null" ? string | null : null;
        rotation: PatchSupport<A>["rotation"] extends "object" ? NonNullable<UpdateBase["rotation"]> : never;
      }
    >
  : never;

type Dest<D extends SyncDestinationSlug> = (typeof syncDestinations)[D];
type ExtraSyncOptions<D extends SyncDestinationSlug> = keyof Dest<D>["extraSyncOptions"] extends never
  ? unknown
  : z.input<z.ZodObject<Dest<D>["extraSyncOptions"]>>;

type SyncOptionsSchema<D extends SyncDestinationSlug> = SecretSyncCreate["syncOptions"] & ExtraSyncOptions<D>;
type ConfigSchema<D extends SyncDestinationSlug> = z.input<Dest<D>["destinationConfig"]>;

/** The `syncOptions` of destination `D`, as sent: those of every sync and the destination's own. */
export type SyncOptionsOf<D extends SyncDestinationSlug> = {
  [K in keyof SyncOptionsSchema<D>]: SyncOptionsSchema<D>[K];
};
/** The `destinationConfig` of destination `D`, as sent. */
export type DestinationConfigOf<D extends SyncDestinationSlug> = { [K in keyof ConfigSchema<D>]: ConfigSchema<D>[K] };

export type SyncOptionsInput<D extends SyncDestinationSlug> = D extends SyncDestinationSlug ? SyncOptionsOf<D> : never;
export type DestinationConfigInput<D extends SyncDestinationSlug> = D extends SyncDestinationSlug
  ? DestinationConfigOf<D>
  : never;

/** The fields of a sync's body that depend on its destination. */
type SecretSyncDestinationFields<D extends SyncDestinationSlug> = {
  syncOptions: SyncOptionsOf<D>;
  destinationConfig: DestinationConfigOf<D>;
};

/** POST /api/v1/secret-syncs/{destination} body. */
export type SecretSyncCreateInput<D extends SyncDestinationSlug> = D extends SyncDestinationSlug
  ? Override<SecretSyncCreate, SecretSyncDestinationFields<D>>
  : never;

/** PATCH /api/v1/secret-syncs/{destination}/{id} body. */
export type SecretSyncUpdateInput<D extends SyncDestinationSlug> = D extends SyncDestinationSlug
  ? Override<SecretSyncUpdate, SecretSyncDestinationFields<D>>
  : never;

type RType<T extends RotationTypeSlug> = (typeof rotationTypes)[T];
type ParametersSchema<T extends RotationTypeSlug> = z.input<RType<T>["parameters"]>;
type MappingSchema<T extends RotationTypeSlug> = z.input<RType<T>["secretsMapping"]>;

/** The `parameters` of rotation type `T`, as sent. */
export type RotationParametersOf<T extends RotationTypeSlug> = {
  [K in keyof ParametersSchema<T>]: ParametersSchema<T>[K];
};
/** The `secretsMapping` of rotation type `T`, as sent. */
export type SecretsMappingOf<T extends RotationTypeSlug> = { [K in keyof MappingSchema<T>]: MappingSchema<T>[K] };

export type RotationParametersInput<T extends RotationTypeSlug> = T extends RotationTypeSlug
  ? RotationParametersOf<T>
  : never;
export type SecretsMappingInput<T extends RotationTypeSlug> = T extends RotationTypeSlug ? SecretsMappingOf<T> : never;
/** One generated credential set of a rotation type, as returned. */
export type GeneratedCredentials<T extends RotationTypeSlug> = z.output<RType<T>["generatedCredentials"]>;

/** `rotationInterval` is a coerced number, whose z.input is `unknown`; callers send days. */
type RotationInterval = number;

/** The fields of a rotation's body that depend on its type. */
type SecretRotationTypeFields<T extends RotationTypeSlug> = {
  rotationInterval: RotationInterval;
  parameters: RotationParametersOf<T>;
  secretsMapping: SecretsMappingOf<T>;
};

/** POST /api/v2/secret-rotations/{type} body. */
export type SecretRotationCreateInput<T extends RotationTypeSlug> = T extends RotationTypeSlug
  ? Override<SecretRotationCreate, SecretRotationTypeFields<T>>
  : never;

/** PATCH /api/v2/secret-rotations/{type}/{id} body. */
export type SecretRotationUpdateInput<T extends RotationTypeSlug> = T extends RotationTypeSlug
  ? Override<SecretRotationUpdate, SecretRotationTypeFields<T>>
  : never;
