import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  alive,
  cancelRunningOperations,
  changeCounts,
  cliResults,
  createTestStack,
  runningOperations,
  TestStack,
} from "./harness";

// The whole chain: real CLI, language host, dynamic-provider shim and our closure, through
// up, a no-change preview, an in-place update and destroy.
jest.setTimeout(10 * 60_000);

describe("the real engine runs a dynamic resource from a program directory", () => {
  let t: TestStack;
  const ledger = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-ledger-"));

  beforeAll(async () => {
    t = await createTestStack({
      program: "trivial",
      config: { "trivial:dir": { value: ledger }, "trivial:text": { value: "one" } },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    fs.rmSync(ledger, { recursive: true, force: true });
  });

  it("up creates the resource", async () => {
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(2); // the stack and the note
    const files = fs.readdirSync(ledger);
    expect(files).toEqual([up.outputs.noteId!.value]);
    expect(fs.readFileSync(path.join(ledger, files[0]!), "utf8")).toBe("one");
  });

  it("the program runs with its project's runtime options (Pulumi.yaml)", async () => {
    // The engine built here sends them to the language host over RPC, which the host built here
    // does not read; scripts/engine/language-host-options.go passes them as flags.
    const { runtime } = await t.stack.outputs();
    expect(runtime!.value).toEqual({ typescript: false, execArgv: ["--stack-trace-limit=25"] });
  });

  it("the harness reads the summary and outputs from the backend's files as the CLI reports them", async () => {
    const cli = cliResults(t.stack);
    const [fromFiles, fromCli] = [await t.stack.info(), await cli.info()];
    expect(fromFiles).toMatchObject({
      kind: fromCli!.kind,
      result: fromCli!.result,
      resourceChanges: fromCli!.resourceChanges,
      startTime: fromCli!.startTime,
      endTime: fromCli!.endTime,
    });
    expect(await t.stack.outputs()).toEqual(await cli.outputs());
    // A secret output is left to the CLI, which decrypts it.
    await t.stack.setConfig("trivial:secretText", { value: "canary-harness-secret", secret: true });
    try {
      const up = await t.stack.up();
      expect(up.outputs.secretText).toEqual({ value: "canary-harness-secret", secret: true });
      expect(up.outputs).toEqual(await cli.outputs());
    } finally {
      await t.stack.removeConfig("trivial:secretText");
    }
  });

  it("a second preview reports no changes", async () => {
    const preview = await t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
  });

  it("a changed input is updated in place", async () => {
    await t.stack.setConfig("trivial:text", { value: "two" });
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, create: 0, replace: 0 });
    const files = fs.readdirSync(ledger);
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(ledger, files[0]!), "utf8")).toBe("two");
  });

  it("destroy removes everything", async () => {
    const destroy = await t.stack.destroy();
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(2);
    expect(fs.readdirSync(ledger)).toEqual([]);
    const state = await t.stack.exportStack();
    expect(state.deployment.resources ?? []).toEqual([]);
  });
});

// What the harness does after a test that timed out (issue 28): an operation still running is
// cancelled with its whole process tree, and the stack is usable by the next test at once.
describe("an operation left running by its test is cancelled", () => {
  let t: TestStack;
  const ledger = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-ledger-"));
  beforeAll(async () => {
    t = await createTestStack({
      program: "trivial",
      config: {
        "trivial:dir": { value: ledger },
        "trivial:text": { value: "slow" },
        "trivial:holdMs": { value: "600000" },
      },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    fs.rmSync(ledger, { recursive: true, force: true });
  });

  it("leaves no process, no lock and a stack the next operation can use", async () => {
    const up = t.stack.up().then(
      () => "finished",
      (e: Error) => e.message,
    );
    // Wait for the condition, not the clock: the provider's create has started and holds.
    while (!fs.readdirSync(ledger).some((f) => f.endsWith(".holding"))) await new Promise((r) => setTimeout(r, 100));
    const [op] = runningOperations();
    expect(op?.args.slice(0, 2)).toEqual(["pulumi", "up"]);
    const providerPid = Number(
      fs.readFileSync(
        path.join(
          ledger,
          fs.readdirSync(ledger).find((f) => f.endsWith(".holding"))!,
        ),
        "utf8",
      ),
    );
    expect(alive(providerPid)).toBe(true);
    const locks = path.join(t.stateDir, ".pulumi", "locks");
    expect(fs.readdirSync(locks, { recursive: true }).some((f) => String(f).endsWith(".json"))).toBe(true);

    expect(await cancelRunningOperations(2_000)).toEqual(["pulumi up --yes"]);
    expect(await up).not.toBe("finished");
    expect(runningOperations()).toEqual([]);
    // The CLI, and the dynamic-provider process it started in a process group of its own.
    expect(alive(op!.pid)).toBe(false);
    expect(alive(providerPid)).toBe(false);
    expect(fs.readdirSync(locks, { recursive: true }).some((f) => String(f).endsWith(".json"))).toBe(false);

    // The next operation runs: the interrupted create is a pending operation the refresh clears.
    await t.stack.setConfig("trivial:holdMs", { value: "0" });
    await t.stack.refresh({ clearPendingCreates: true });
    const next = await t.stack.up();
    expect(changeCounts(next.summary.resourceChanges).create).toBeGreaterThanOrEqual(1);
    expect(fs.readdirSync(ledger).filter((f) => !f.endsWith(".holding"))).toEqual([next.outputs.noteId!.value]);
  });
});
