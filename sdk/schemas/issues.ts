import { AsyncLocalStorage } from "node:async_hooks";
import type { z } from "zod";

/**
 * The one voice for a mistake. The SDK (before sending and when reading a 422), the providers'
 * `check` (what `pulumi preview` shows) and the emulator (the issues of its 422 bodies) all turn
 * zod issues into `{ path, message }` here, so the same mistake reads the same everywhere, in the
 * `field.path: rule` form.
 */

/** One problem with a request or a response: `path` is dotted (`credentials.port`), "" for the root. */
export interface Issue {
  path: string;
  message: string;
}

type ZodIssue = z.core.$ZodIssue;

/** The rule a missing required field breaks. */
export const REQUIRED = "is required";

/**
 * The error map of a required field, which reads `is required` when the field has no value (the
 * raw issue still carries the input here, before zod drops it). Zod 4 reports a missing enum or
 * literal as a wrong value (`must be one of the options "organization", …`) and a missing field
 * with an error of its own in that error's words (a UUID's `must be a UUID`); the field's own map
 * answers every other issue. `strictObject` (./common.ts) gives it to each required field of
 * every request object, so the SDK, the providers' `check` and the emulator all say it.
 */
export function missingIsRequired<I extends z.core.$ZodIssueBase>(
  own: z.core.$ZodErrorMap<I> | undefined,
): z.core.$ZodErrorMap<I> {
  return (issue) =>
    issue.input === undefined &&
    (issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union")
      ? REQUIRED
      : own?.(issue);
}

/**
 * Zod issues as `{path, message}`. Two refinements over the raw issues:
 * - a union failure reports the branch that matched best instead of a bare "Invalid input";
 * - zod's default type/value messages are shortened to the rule (`expected number`, `is required`).
 * Zod 4 issues do not carry the input unless asked to, and only path and message are copied, so
 * the rejected value (perhaps a secret) never reaches the message.
 */
export function issuesFromZod(issues: readonly ZodIssue[], prefix: readonly PropertyKey[] = []): Issue[] {
  const out: Issue[] = [];
  const visit = (issue: ZodIssue, base: readonly PropertyKey[]) => {
    const path = [...base, ...issue.path];
    // A missing field is missing whatever branch it would have taken.
    if (issue.code === "invalid_union" && issue.errors.length > 0 && issue.message !== REQUIRED) {
      const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
      for (const inner of best) visit(inner, path);
      return;
    }
    out.push({ path: path.map(String).join("."), message: ruleOf(issue) });
  };
  for (const issue of issues) visit(issue, prefix);
  return out;
}

/** The rule an issue breaks, in words. */
export function ruleOf(issue: ZodIssue): string {
  const m = issue.message;
  if (issue.code === "invalid_type" && m.startsWith("Invalid input: expected")) {
    return m.endsWith("received undefined") ? REQUIRED : `expected ${issue.expected}`;
  }
  if (issue.code === "invalid_value" && /^Invalid (input|option): expected/.test(m)) {
    const values = issue.values.map((v) => JSON.stringify(v));
    return values.length === 1 ? `must be ${values[0]}` : `must be one of the options ${values.join(", ")}`;
  }
  // zod's default size messages ("Too big: expected string to have <=255 characters") in the
  // words every custom limit uses: "must be at most 255 characters", "must not be empty".
  if ((issue.code === "too_big" || issue.code === "too_small") && /^Too (big|small): expected/.test(m)) {
    return sizeRule(issue);
  }
  if (issue.code === "invalid_union" && "options" in issue && Array.isArray(issue.options)) {
    // A discriminated union whose discriminator matched no branch.
    return `must be one of ${(issue.options as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return m;
}

/** A size limit in the words of the custom limits: "must be at most 255 characters". */
function sizeRule(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === "too_big";
  const limit = Number(big ? (issue as z.core.$ZodIssueTooBig).maximum : (issue as z.core.$ZodIssueTooSmall).minimum);
  const exclusive = issue.inclusive === false;
  const unit =
    issue.origin === "string" ? "character" : issue.origin === "array" || issue.origin === "set" ? "item" : "";
  if (!big && unit && limit === 1 && !exclusive) return "must not be empty";
  const bound = big ? (exclusive ? "less than" : "at most") : exclusive ? "more than" : "at least";
  return `must be ${bound} ${limit}${unit ? ` ${unit}${limit === 1 ? "" : "s"}` : ""}`;
}

/** `path: message`, or the message alone for the root. */
export function formatIssue(i: Issue): string {
  return i.path ? `${i.path}: ${i.message}` : i.message;
}

/** Issues joined with "; ". */
export function formatIssueList(issues: readonly Issue[]): string {
  return issues.map(formatIssue).join("; ");
}

/** Edit distance between two words (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * The known word a mistyped one most likely meant: the nearest within a third of its length (at
 * least 2 edits), else the shortest that begins with it and a hyphen (`postgres` →
 * `postgres-credentials`), if any.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(w, k.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { k, d };
  }
  if (best) return best.k;
  const longer = known.filter((k) => k.toLowerCase().startsWith(`${w}-`));
  return longer.sort((a, b) => a.length - b.length)[0];
}

/** ` (did you mean "x"?)` when a known word is close, else "". */
export function didYouMean(word: string, known: readonly string[]): string {
  const near = closest(word, known);
  return near ? ` (did you mean "${near}"?)` : "";
}

/**
 * Whether the program checked now may spell fields in snake_case: set around the native
 * provider's check (`withSnakeCaseKeys`), where a Python program's dict keys arrive as written.
 * Where it is not set (the TypeScript classes, the SDK, the emulator), fields are named as the
 * schemas spell them.
 */
const snakeCaseKeys = new AsyncLocalStorage<true>();

/** Runs `check` (and what it awaits) as a check of a program that may spell fields in snake_case. */
export function withSnakeCaseKeys<T>(check: () => T): T {
  return snakeCaseKeys.run(true, check);
}

/** A schema field's snake_case spelling, as a Python SDK spells it: `isCA` → `is_ca`. */
export function snakeCase(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

/** A key written in snake_case: an underscore, and no capital. */
const isSnakeCase = (key: string) => key.includes("_") && key === key.toLowerCase();

/**
 * The rule a field outside an object's shape breaks, naming it, the nearest known field and the
 * fields there are: a request never drops a field silently. In a program that may spell fields in
 * snake_case (`withSnakeCaseKeys`), unknown keys all written so get the nearest field and the list
 * in snake_case too, the spelling the program uses.
 */
export function unknownFieldsRule(keys: readonly string[], fields: readonly string[]): string {
  const spelt = snakeCaseKeys.getStore() && keys.every(isSnakeCase) ? fields.map(snakeCase) : fields;
  const named = keys.map((k) => `"${k}"${didYouMean(k, spelt)}`).join(", ");
  const list = spelt.length ? `; the fields here are ${spelt.join(", ")}` : "; no field is allowed here";
  return `unknown field${keys.length > 1 ? "s" : ""} ${named}${list}`;
}

/**
 * `params` of an issue about a field that belongs to another branch of the service's union (a
 * `scope` or `mappingBehavior` variant that does not have it). The service's branches are plain
 * `z.object`s, so it drops such a field and answers 200; the program side and the SDK refuse it
 * (this package models each union as one object with a rule), and the emulator drops it as the
 * service does (emulator/route-registration.ts).
 */
export const fieldOfAnotherBranch = { fieldOfAnotherBranch: true } as const;

/** Whether an issue names a field of another branch of the service's union (see `fieldOfAnotherBranch`). */
export function isFieldOfAnotherBranch(issue: ZodIssue): boolean {
  return issue.code === "custom" && issue.params?.["fieldOfAnotherBranch"] === true;
}

/** The rule an unknown kind slug breaks: the nearest known slug, and the known ones. */
export function unknownKindRule(what: string, value: unknown, known: readonly string[]): string {
  const near = typeof value === "string" ? didYouMean(value, known) : "";
  return `unknown ${what} ${JSON.stringify(value)}${near}; the ${known.length} this package types are ${known.join(", ")}`;
}
