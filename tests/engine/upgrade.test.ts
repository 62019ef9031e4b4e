import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator as startTodaysEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { installTarball, packInto, tarballOfCommit } from "../../scripts/packed-install";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";
import { changeCounts, cliStackExport, createTestStack, repoRoot, storedState, type TestStack } from "./harness";

/**
 * docs/resources.md, "Upgrading the package": a stack made with an earlier release keeps working
 * when the package is upgraded under it, with the program unchanged. For two earlier commits of
 * this repository: the quickstart of that commit, installed from that commit's `npm pack`, makes
 * its stack against a service, either that commit's emulator (the service as it was when the
 * release was made) or this checkout's (today's service, which a user's old release talks to as
 * well: it answers a profile's create with the profile's row alone, docs/service-api.md §4, so the
 * old release's state holds no config object); then this checkout's tarball is installed over it.
 * The first preview after the upgrade shows no change, a refresh is clean, `up` does nothing, an
 * edit of the program is an update in place, no canary is in the state, and destroy removes every
 * object the stack made.
 */
jest.setTimeout(20 * 60_000);

/** The commits whose quickstart a trial upgraded (issue 39): they bracket two days of changes. */
const COMMITS = ["dc4656b", "419dd71"];
/** Whose emulator the stack lives on: the old release's, or this checkout's (issue 45, item 9). */
const SERVICES = ["its own emulator", "this checkout's emulator"] as const;
const CASES = COMMITS.flatMap((commit) => SERVICES.map((service) => [commit, service] as const));
const CANARY = "canary-upgrade-est-passphrase-3b9d1e";
const DESCRIPTION = "Web app secrets, managed by Pulumi";

type Emulator = { url: string; token: string; stop(): Promise<void> };

describe.each(CASES)("a stack made with the package at %s against %s, upgraded to this checkout", (commit, service) => {
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
    // Today's service keeps certificate profiles in a cert-manager project of their own (the old
    // quickstart declared one project for all): the profile's project is a config read there, as
    // its user would have had to write it to make the stack at all.
    const source = gitShow(`${commit}:examples/quickstart/index.ts`);
    const program = service === "its own emulator" ? source : withProfileProject(source);
    if (service !== "its own emulator") expect(program).not.toBe(source);
    fs.writeFileSync(path.join(dir, "index.ts"), program);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: secretops-quickstart\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    // The service as it was (that release's emulator), or as it is (this checkout's).
    const { startEmulator } =
      service === "its own emulator"
        ? require(path.join(dir, "node_modules/secretops-pulumi/dist/emulator"))
        : { startEmulator: startTodaysEmulator };
    emulator = await startEmulator({ port: 0, rateLimits: false, syncJobDelayMs: 50 });
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    t = await createTestStack({
      program: dir,
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        "secretops-quickstart:estPassphrase": { value: CANARY, secret: true },
        ...(service === "its own emulator"
          ? {}
          : { "secretops-quickstart:pkiProjectId": { value: pkiProjectOf(emulator) } }),
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

/** The old quickstart with its profile's project read from config (`pkiProjectId`). */
const withProfileProject = (source: string) =>
  source.replace(
    /(new CertificateProfile\("web-servers", \{\n\s*)projectId,/,
    '$1projectId: config.get("pkiProjectId") ?? projectId,',
  );

/** The project of the fixture's certificate policies: today's emulator's cert-manager project. */
const pkiProjectOf = (emulator: Emulator) =>
  (emulator as Emulator & { summary: { certificatePolicies: { projectId: string }[] } }).summary.certificatePolicies[0]!
    .projectId;

const gitShow = (object: string) => runSync("git", ["show", object], { cwd: repoRoot, timeoutMs: TIMEOUTS.quick });
