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

type Kinds = typeof appConnectionKinds;
type Methods<A extends AppConnectionApp> = Kinds[A]["methods"];
type InputOf<T> = T extends z.ZodType ? z.input<T> : never;

/** The credentials object of one method of one kind, as sent. */
export type AppConnectionCredentials<
  A extends AppConnectionApp,
  M extends keyof Methods<A> = keyof Methods<A>,
> = M extends keyof Methods<A> ? (Methods<A>[M] extends { credentials: infer S } ? InputOf<S> : never) : never;

/** A method's create body (name, description, projectId, …, method, credentials), from the factory's object branch. */
type CreateBody = z.input<Extract<ReturnType<typeof appConnectionCreateSchema>, z.ZodObject>>;

/** POST /api/v1/app-connections/{app} body: one variant per method of the kind. */
export type AppConnectionCreateInput<A extends AppConnectionApp> = A extends AppConnectionApp
  ? {
      [M in keyof Methods<A> & string]: Override<
        CreateBody,
        { method: M; credentials: AppConnectionCredentials<A, M> }
      >;
    }[keyof Methods<A> & string]
  : never;

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
  ? Partial<
      Override<
        UpdateBase,
        {
          credentials: AppConnectionCredentials<A>;
          isPlatformManagedCredentials: PatchFlag<PatchSupport<A>["isPlatformManagedCredentials"]>;
          isAutoRotationEnabled: PatchFlag<PatchSupport<A>["isAutoRotationEnabled"]>;
          gatewayId: PatchSupport<A>["gatewayId"] extends "uuid-or-null" ? string | null : null;
          rotation: PatchSupport<A>["rotation"] extends "object" ? NonNullable<UpdateBase["rotation"]> : never;
        }
      >
    >
  : never;

type Dest<D extends SyncDestinationSlug> = (typeof syncDestinations)[D];
type ExtraSyncOptions<D extends SyncDestinationSlug> = keyof Dest<D>["extraSyncOptions"] extends never
  ? unknown
  : z.input<z.ZodObject<Dest<D>["extraSyncOptions"]>>;

export type SyncOptionsInput<D extends SyncDestinationSlug> = SecretSyncCreate["syncOptions"] & ExtraSyncOptions<D>;
export type DestinationConfigInput<D extends SyncDestinationSlug> = z.input<Dest<D>["destinationConfig"]>;

/** POST /api/v1/secret-syncs/{destination} body. */
export type SecretSyncCreateInput<D extends SyncDestinationSlug> = D extends SyncDestinationSlug
  ? Override<SecretSyncCreate, { syncOptions: SyncOptionsInput<D>; destinationConfig: DestinationConfigInput<D> }>
  : never;

/** PATCH /api/v1/secret-syncs/{destination}/{id} body. */
export type SecretSyncUpdateInput<D extends SyncDestinationSlug> = D extends SyncDestinationSlug
  ? Override<SecretSyncUpdate, { syncOptions: SyncOptionsInput<D>; destinationConfig: DestinationConfigInput<D> }>
  : never;

type RType<T extends RotationTypeSlug> = (typeof rotationTypes)[T];
export type RotationParametersInput<T extends RotationTypeSlug> = z.input<RType<T>["parameters"]>;
export type SecretsMappingInput<T extends RotationTypeSlug> = z.input<RType<T>["secretsMapping"]>;
/** One generated credential set of a rotation type, as returned. */
export type GeneratedCredentials<T extends RotationTypeSlug> = z.output<RType<T>["generatedCredentials"]>;

/** `rotationInterval` is a coerced number, whose z.input is `unknown`; callers send days. */
type RotationInterval = number;

/** POST /api/v2/secret-rotations/{type} body. */
export type SecretRotationCreateInput<T extends RotationTypeSlug> = T extends RotationTypeSlug
  ? Override<
      SecretRotationCreate,
      {
        rotationInterval: RotationInterval;
        parameters: RotationParametersInput<T>;
        secretsMapping: SecretsMappingInput<T>;
      }
    >
  : never;

/** PATCH /api/v2/secret-rotations/{type}/{id} body. */
export type SecretRotationUpdateInput<T extends RotationTypeSlug> = T extends RotationTypeSlug
  ? Override<
      SecretRotationUpdate,
      {
        rotationInterval: RotationInterval;
        parameters: RotationParametersInput<T>;
        secretsMapping: SecretsMappingInput<T>;
      }
    >
  : never;
