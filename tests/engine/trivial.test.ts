import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changeCounts, createTestStack, TestStack } from "./harness";

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
