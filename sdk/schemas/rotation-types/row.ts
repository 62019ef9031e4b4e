import { z } from "zod";
import type { AppConnectionApp } from "../app-connections";
import { type KindOrigin, secretName, strictObject } from "../common";

/**
 * The parts of a rotation type's row, and what several types share. One file per type (the SQL
 * types share one), as the service keeps one folder per type
 * (`ee/services/secret-rotation-v2/<type>/`); the table is `index.ts`.
 */

/** A trimmed string that must not be empty (the service trims every string input). */
export const str = z.string().trim().min(1, { error: "must not be empty" });

/**
 * `passwordRequirements` (docs/service-api.md §3, §9): ranges only, no whole-number rule. Optional in every type's
 * parameters; the service applies `defaultPasswordRequirements` only when it generates a password
 * and stores the parameters as sent, so the SDK never fills it in.
 */
export const passwordRequirements = strictObject({
  /** Length of a generated password, 1 to 250. */
  length: z.number().min(1, { error: "must be 1 to 250" }).max(250, { error: "must be 1 to 250" }),
  /** How many characters of each class a password must have, at least one of them above 0. */
  required: strictObject({
    /** At least this many digits. */
    digits: z.number().min(0, { error: "must be at least 0" }),
    /** At least this many lowercase letters. */
    lowercase: z.number().min(0, { error: "must be at least 0" }),
    /** At least this many uppercase letters. */
    uppercase: z.number().min(0, { error: "must be at least 0" }),
    /** At least this many symbols. */
    symbols: z.number().min(0, { error: "must be at least 0" }),
  }),
  /** The symbols a password may contain: at least one of `!@#$%^&*()_+-=[]{};':"\|,.<>/?~`. */
  allowedSymbols: z
    .string()
    // The service's regex is not anchored: one of its symbols anywhere passes
    // (shared/general/password-requirements-schema.ts).
    .regex(/[!@#$%^&*()_+\-=[\]{};':"\\|,.<>/?~]/, {
      error: "Invalid symbols: must contain at least one of !@#$%^&*()_+-=[]{};':\"\\|,.<>/?~",
    })
    .optional(),
})
  .refine((p) => Object.values(p.required).some((n) => n > 0), {
    error: "at least one required character count must be above 0",
    path: ["required"],
  })
  .refine((p) => Object.values(p.required).reduce((a, b) => a + b, 0) <= p.length, {
    error: "the required character counts must not add up to more than length",
    path: ["required"],
  });
export type PasswordRequirements = z.infer<typeof passwordRequirements>;

/** What the service generates passwords with when a rotation has no `passwordRequirements`. */
export const defaultPasswordRequirements: PasswordRequirements = {
  length: 48,
  required: { lowercase: 1, uppercase: 1, digits: 1, symbols: 0 },
  allowedSymbols: "-_.~!*",
};

export const usernamePasswordMapping = strictObject({
  /** The secret the active username is written to. */
  username: secretName,
  /** The secret the active password is written to. */
  password: secretName,
});
export const usernamePassword = z.object({ username: z.string(), password: z.string() });

export interface RotationType {
  /** The real slug: the `{rotation_slug}` path segment and the `type` field. */
  readonly type: string;
  readonly label: string;
  /** The spec's generic name for the type. */
  readonly family: string;
  /** Where the type comes from: the service's enum of rotation types, or a folder beyond it. */
  readonly origin: KindOrigin;
  /** The app-connection kind a rotation of this type needs. */
  readonly connectionApp: AppConnectionApp;
  readonly parameters: z.ZodType<Record<string, unknown>, Record<string, unknown>>;
  readonly secretsMapping: z.ZodObject;
  /** Shape of one generated credential set; `secretFields` are secret. */
  readonly generatedCredentials: z.ZodObject;
  readonly secretFields: readonly string[];
  /**
   * Rules of the create body beyond its parts' schemas (the service's `superRefine` on its
   * `Create…RotationSchema`; its update schemas have none), applied by `secretRotationCreateSchema`.
   */
  readonly createRules?: readonly RotationCreateRule[];
  /** Valid `parameters`: the emulator's tests and the SDK's per-kind tests are built from it. */
  readonly example: { readonly parameters: Record<string, unknown> };
  /**
   * Parameters or mappings the service refuses, at least one for each rule of the row beyond a
   * plain type: the SDK's and the emulator's kind-rule tests send each one in a create
   * (tests/sdk/kind-rules.test.ts, tests/kinds/kind-rules.test.ts) and expect the issue named.
   */
  readonly invalidExamples?: readonly InvalidRotationExample[];
}

/** The parts of a rotation's create body a create rule reads, as the body schema parsed them. */
export interface RotationCreateParts {
  readonly parameters?: Record<string, unknown>;
  /** The service's `temporaryParameters`; this package's create body has none. */
  readonly temporaryParameters?: { readonly password?: unknown };
}

/** A rule of a rotation's create body: broken when `breaks` holds, reported at `path`. */
export interface RotationCreateRule {
  readonly breaks: (body: RotationCreateParts) => boolean;
  readonly message: string;
  readonly path: readonly PropertyKey[];
}

/** The service's words for `currentPasswordRule` of its SSH, Unix/Linux, Windows and HP iLO types. */
export const LOGIN_AS_TARGET_NEEDS_PASSWORD =
  "Current password is required for initial rotation setup in login as target method";

/**
 * The service's rule that a rotation method logging in as the rotated account needs that account's
 * current password in `temporaryParameters.password` on create. This package's create body has no
 * `temporaryParameters` (a secret the providers would have to keep), so such a rotation is refused
 * here as the service refuses it without one, in its words and at its path.
 */
export function currentPasswordRule(rotationMethod: string, message: string): RotationCreateRule {
  return {
    breaks: (b) => b.parameters?.rotationMethod === rotationMethod && !b.temporaryParameters?.password,
    message,
    path: ["temporaryParameters", "password"],
  };
}

/**
 * What the types that rotate one account's password by logging in share (SSH password, Unix/Linux
 * and Windows local accounts, HP iLO): the username and password mapped to two secrets, the password
 * secret, and the service's rule that `login-as-target` needs the account's current password on
 * create (`temporaryParameters.password`, which the shared create body has not: that method is
 * refused on create as the service refuses it without one), with its invalid example for the row's
 * example account.
 */
export function accountPasswordRotation(exampleUsername: string) {
  return {
    createRules: [currentPasswordRule("login-as-target", LOGIN_AS_TARGET_NEEDS_PASSWORD)],
    secretsMapping: usernamePasswordMapping,
    generatedCredentials: usernamePassword,
    secretFields: ["password"],
    invalidExamples: [
      {
        parameters: { username: exampleUsername, rotationMethod: "login-as-target" },
        path: "temporaryParameters.password",
        message: LOGIN_AS_TARGET_NEEDS_PASSWORD,
      },
    ],
  } as const;
}

/**
 * A create body the service refuses: the row's example `parameters` replaced by `parameters` and
 * the mapping of every `secretsMapping` field by `secretsMapping` where given; refused with
 * `message` (or the beginning of it) at `path` (dotted, from the body: `parameters.username1`).
 */
export interface InvalidRotationExample {
  readonly parameters?: Record<string, unknown>;
  readonly secretsMapping?: Record<string, unknown>;
  readonly path: string;
  readonly message: string;
}

/**
 * Declares a rotation type's row. Typed so that the connection kind is one of
 * `appConnectionKinds` and the example a valid input of the row's own `parameters` schema.
 */
export function rotationRow<
  const P extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
  const M extends z.ZodObject,
  const G extends z.ZodObject,
>(
  row: Omit<RotationType, "parameters" | "secretsMapping" | "generatedCredentials" | "example"> & {
    parameters: P;
    secretsMapping: M;
    generatedCredentials: G;
    example: { parameters: z.input<P> };
  },
): RotationRow<P, M, G> {
  return row;
}

/** A rotation type's row, typed by its schemas (what `sdk/types.ts` reads). */
export interface RotationRow<
  P extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
  M extends z.ZodObject,
  G extends z.ZodObject,
> extends RotationType {
  readonly parameters: P;
  readonly secretsMapping: M;
  readonly generatedCredentials: G;
}

/** An account's name on a machine a rotation logs in to: letters, digits, hyphens and underscores. */
export const accountName = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .regex(/^[a-zA-Z0-9_-]+$/, { error: "may only contain letters, digits, hyphens and underscores" });

/**
 * The parameters of a rotation of an account's password on a machine the connection logs in to
 * (SSH Password, Unix/Linux Local Account, HP iLO Local Account): the account, with the type's own
 * doc line (`{ /** The local account whose password is rotated … *\/ username: accountName }`),
 * how passwords are generated, and who changes the password. A shape: the type adds its own fields
 * (or its own `passwordRequirements`) after it, in its `strictObject`.
 */
export function accountPasswordParameters<const U extends { readonly username: typeof accountName }>(account: U) {
  return {
    ...account,
    /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
    passwordRequirements: passwordRequirements.optional(),
    /** `login-as-root`: the connection's user changes the password; `login-as-target`: the account changes its own (the service needs its current password on create, which this package does not send: refused on create). */
    rotationMethod: z.enum(["login-as-target", "login-as-root"]).optional(),
  };
}
