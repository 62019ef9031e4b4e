import * as path from "node:path";
import { typeCheckPrograms } from "../../scripts/type-check-programs";
import { checkCost } from "./helpers/compile";

/**
 * What a TypeScript program's type-check costs the compiler because of this package: the types
 * and instantiations it creates checking a program (deterministic, unlike its time), against a
 * program that uses only `@pulumi/pulumi`. A program checks against the generated declarations
 * (provider/program-types.ts): the quickstart's share is about 3,000 of each, 200 syncs' 2,700
 * types and 600 instantiations. Checked against the derived types, as before them (this test at
 * 7ca1b8b), they were 98,456 types and 357,753 instantiations, and 57,344 and 170,152.
 * docs/benchmarks.md has the times.
 */

const programs = typeCheckPrograms(path.resolve(__dirname, "..", ".."));

const baseline = checkCost(programs.baseline);

const named: Record<string, string> = {
  "the quickstart": programs.quickstart,
  "200 syncs to ten destinations": programs.syncs,
};
const budget = 5_000;

test.each(Object.keys(named))(`checking %s creates at most ${budget} types and instantiations more`, (name) => {
  const cost = checkCost(named[name]!);
  const share = { types: cost.types - baseline.types, instantiations: cost.instantiations - baseline.instantiations };
  expect(cost.diagnostics.map((d) => d.message)).toEqual([]);
  expect(share.types).toBeLessThanOrEqual(budget);
  expect(share.instantiations).toBeLessThanOrEqual(budget);
});
