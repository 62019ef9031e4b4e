import * as fs from "node:fs";
import {
  PROGRAM_RESOURCES_FILE,
  PROGRAM_TYPES_FILE,
  derivedTypes,
  programResources,
  programTypes,
} from "../../scripts/program-types";
import { compileSnippets } from "./helpers/compile";

/**
 * provider/program-types.ts, the declarations programs check against, and
 * provider/program-resources.ts, what the program's classes register, are what
 * scripts/program-types.ts writes from the definitions and their derived types; and each declared
 * type takes exactly the values its derived type takes (each assignable to the other), for every
 * kind of every resource, each instance's outputs and the other exported types.
 */

test.each([
  ["provider/program-types.ts", PROGRAM_TYPES_FILE, programTypes],
  ["provider/program-resources.ts", PROGRAM_RESOURCES_FILE, programResources],
])(
  "%s is what `npm run types` writes",
  (_name, file, write) => {
    const upToDate = write() === fs.readFileSync(file, "utf8");
    expect({ upToDate, fix: "npm run types" }).toEqual({ upToDate: true, fix: "npm run types" });
  },
  120_000,
);

test("every declared type takes what its derived type takes, and no more", () => {
  const pairs = [...derivedTypes("../../../provider")];
  const lines = pairs.map(
    ([key, { derived, declared }], i) =>
      `export const t${i}: Same<${declared}, ${derived}, ${JSON.stringify(key)}> = ${JSON.stringify(key)};`,
  );
  const snippet = [
    // The key when each is assignable to the other; else a message naming the way that fails.
    "type Same<A, B, K> = [A] extends [B] ? ([B] extends [A] ? K : `${K & string}: derived not assignable to declared`) : `${K & string}: declared not assignable to derived`;",
    ...lines,
  ].join("\n");
  const messages = compileSnippets({ sameTypes: snippet }).sameTypes!.map((d) => d.message.split("\n")[0]);
  expect({ pairs: pairs.length, messages }).toEqual({ pairs: expect.any(Number), messages: [] });
  // Every kind is compared: syncs, rotations, profiles, connection methods and settings.
  expect(pairs.length).toBeGreaterThan(300);
}, 300_000);
