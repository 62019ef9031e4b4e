import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SecretOpsClient } from "../../sdk";
import { installTarball, packInto, tarballOfCommit } from "../../scripts/packed-install";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";
import { changeCounts, cliStackExport, createTestStack, repoRoot, storedState, type TestStack } from "./harness";

/**
 * docs/resources.md, "Upgrading the package": a stack made with an earlier release keeps working
 * when the package is upgraded under it, with the program unchanged. For two earlier commits of
 * this repository: the quickstart of that commit, installed from that commit's `npm pack`, makes
 * its stack against that commit's emulator (the service the stack was made at); then this
 * checkout's tarball is installed over it. A preview shows no change, a refresh is clean, `up`
 * does nothing, an edit of the program is an update in place, no canary is in the state, and
 * destroy removes every object the stack made.
 */
jest.setTimeout(20 * 60_000);

/** The commits whose quickstart a trial upgraded (issue 39): they bracket two days of changes. */
const COMMITS = ["dc4656b", "419dd71"];
const CANARY = "canary-upgrade-est-passphrase-3b9d1e";
const DESCRIPTION = "Web app secrets, managed by Pulumi";

type Emulator = { url: string; token: string; stop(): Promise<void> };

describe.each(COMMITS)("a stack made with the package at %s, upgraded to this checkout", (commit) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `secretops-upgrade-${commit}-`));
  let emulator: Emulator;
  let client: SecretOpsClient;
  let t: TestStack;
  let ids: Record<string, string>;

  beforeAll(async () => {
    // The earlier release, under a name of its own (the upgrade installs another tarball).
    const old = tarballOfCommit(repoRoot, commit);
    fs.copyFileSync(old, path.join(dir, path.basename(old)));
    installTarball(repoRoot, path.basename(old), dir, { devDependencies: { typescript: "~5.9.3" } });
    // The program of that commit, as its users had it.
    fs.writeFileSync(path.join(dir, "index.ts"), gitShow(`${commit}:examples/quickstart/index.ts`));
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: secretops-quickstart\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    // The service as it was: that release's emulator.
    const { startEmulator } = require(path.join(dir, "node_modules/secretops-pulumi/dist/emulator"));
    emulator = await startEmulator({ port: 0, rateLimits: false, syncJobDelayMs: 50 });
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    t = await createTestStack({
      program: dir,
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        "secretops-quickstart:estPassphrase": { value: CANARY, secret: true },
      },
    });
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false });
    await emulator?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the earlier release makes the stack", async () => {
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(5);
    ids = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, String(v.value)]));
    expect((await client.secretSyncs.get("vercel", ids.syncId!)).description).toBe(DESCRIPTION);
  });

  test("after the upgrade: no change at preview, a clean refresh, an up that does nothing", async () => {
    const current = packInto(repoRoot, dir);
    installTarball(repoRoot, current, dir, { devDependencies: { typescript: "~5.9.3" } });
    // This checkout's build is what the program and its provider load now.
    expect(fs.existsSync(path.join(dir, "node_modules/secretops-pulumi/dist/provider/held-objects.js"))).toBe(true);
    await t.stack.preview({ expectNoChanges: true });
    const refresh = await t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 0, delete: 0 });
    await t.stack.preview({ expectNoChanges: true });
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
  });

  test("an edit of the program is an update in place", async () => {
    const program = path.join(dir, "index.ts");
    fs.writeFileSync(program, fs.readFileSync(program, "utf8").replace(DESCRIPTION, `${DESCRIPTION}, upgraded`));
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, replace: 0, create: 0, delete: 0 });
    expect(String(up.outputs.syncId!.value)).toBe(ids.syncId);
    expect((await client.secretSyncs.get("vercel", ids.syncId!)).description).toBe(`${DESCRIPTION}, upgraded`);
  });

  test("no canary in the state, and destroy removes every object the stack made", async () => {
    for (const text of [await cliStackExport(t), storedState(t)]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(emulator.token);
    }
    const destroy = await t.stack.destroy();
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(5);
    await expect(client.secretSyncs.get("vercel", ids.syncId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.certificateProfiles.get(ids.profileId!)).rejects.toMatchObject({ status: 404 });
  });
});

const gitShow = (object: string) => runSync("git", ["show", object], { cwd: repoRoot, timeoutMs: TIMEOUTS.quick });
