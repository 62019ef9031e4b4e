import { destinationKey, sameDestination, syncDestinationRow } from "../../sdk/schemas/secret-syncs";

// The service's duplicate rule (sdk/schemas/secret-syncs.ts, `sameDestination`) decides most
// comparisons by a differing top-level string or boolean before it builds the canonical forms; the
// answer is the one the canonical forms give.
const row = (slug: string) => syncDestinationRow(slug)!;
const byKeys = (slug: string, a: Record<string, unknown>, b: Record<string, unknown>) =>
  destinationKey(row(slug), a) === destinationKey(row(slug), b);

test.each([
  ["vercel", { app: "a", env: "production" }, { app: "b", env: "production" }, false],
  ["vercel", { app: "a", env: "production" }, { env: "production", app: "a" }, true], // key order
  ["vercel", { app: "a", env: "production" }, { app: "a", env: "production", teamId: undefined }, true],
  ["vercel", { app: "a" }, { app: "a", env: "production" }, false], // a field only one has
  ["1password", { vaultId: "v", valueLabel: "x" }, { vaultId: "v", valueLabel: "y" }, true], // skipped by the check
  ["aws-parameter-store", { region: "us-east-1", path: "/a/" }, { region: "us-east-1", path: "/b/" }, false],
  ["github", { scope: "repository", owner: "o", repo: "r" }, { scope: "repository", owner: "o", repo: "r" }, true],
])("%s: %j and %j are one destination: %s", (slug, existing, candidate, same) => {
  expect(sameDestination(row(slug), existing, candidate)).toBe(same);
  expect(sameDestination(row(slug), existing, candidate)).toBe(
    byKeys(slug, existing, candidate) && (row(slug).sameDestination?.(existing, candidate) ?? true),
  );
});

test("a nested difference still decides by the canonical forms", () => {
  const r = row("aws-secrets-manager");
  const a = { region: "us-east-1", mappingBehavior: "one-to-one", tags: [{ key: "k", value: "1" }] };
  const b = { region: "us-east-1", mappingBehavior: "many-to-one", tags: [{ value: "1", key: "k" }] };
  expect(sameDestination(r, a, b)).toBe(true); // mappingBehavior is skipped; the tags are equal
  expect(sameDestination(r, a, { ...b, tags: [{ key: "k", value: "2" }] })).toBe(false);
});
