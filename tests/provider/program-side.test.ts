import { spawnSync } from "node:child_process";
import * as path from "node:path";

/**
 * The resource constructors register without capturing the Node SDK's debug stacks
 * (`withoutRegistrationStacks` in provider/program-side.ts). What must hold: the SDK's promises
 * for each property carry no frames, unless `PULUMI_DEBUG_PROMISE_LEAKS` asks for them; the
 * process's `Error.stackTraceLimit` is back after every constructor, thrown or not; and an error
 * thrown while registering still carries a stack naming the program's line.
 *
 * The program (programs/registration-stacks.js) runs in a process of its own, under Pulumi's
 * mocks, on the package's sources transpiled by swc: the SDK's closure serialization cannot run
 * inside jest. (The built package registers resources in every engine test.)
 */

interface Observed {
  limitBefore: number;
  limitAfter: number;
  tagged: number;
  framesPerStack: number[];
  thrown?: { message: string; stack: string };
  limitAfterThrow: number;
  genericIsSync: boolean;
  names: string[];
}

const program = path.join(__dirname, "programs", "registration-stacks.js");
const run = (env: Record<string, string> = {}): Observed => {
  // Its exit code is the SDK's verdict on the registrations left pending under mocks: not read.
  const { stdout } = spawnSync(process.execPath, [program], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_DEBUG_PROMISE_LEAKS: "", ...env },
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 60_000,
    killSignal: "SIGKILL",
  });
  return JSON.parse(stdout.trim().split("\n")[0]!) as Observed;
};

test("registers a SecretSync's properties with no frames captured, and restores Error.stackTraceLimit", () => {
  const o = run();
  expect(o.tagged).toBeGreaterThan(10); // one promise per registered property
  expect(o.framesPerStack.every((n) => n === 0)).toBe(true);
  expect(o.limitAfter).toBe(o.limitBefore);
});

test("with PULUMI_DEBUG_PROMISE_LEAKS set, the SDK's debug stacks keep their frames", () => {
  const o = run({ PULUMI_DEBUG_PROMISE_LEAKS: "1" });
  expect(o.tagged).toBeGreaterThan(10);
  expect(o.framesPerStack.every((n) => n > 0)).toBe(true);
});

test("an error thrown while registering carries a stack with the program's line, and the limit is restored", () => {
  const o = run();
  expect(o.thrown?.message).toBe("Missing resource name argument (for URN creation)");
  expect(o.thrown?.stack).toContain("registration-stacks.js");
  expect(o.limitAfterThrow).toBe(o.limitBefore);
});

test("a GenericSecretSync is a SecretSync, and the classes carry their names", () => {
  const o = run();
  expect({ genericIsSync: o.genericIsSync, names: o.names }).toEqual({
    genericIsSync: true,
    names: ["SecretSync", "GenericSecretSync"],
  });
});
