import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { alive, changeCounts, cliStackExport, killTree, pulumiBinDir } from "../engine/harness";
import { engineEnv, type EngineEnv } from "../engine/lifecycle";
import { census, mixedResources } from "./mixed-stack";

/**
 * A CI runner dies: `pulumi up` creating 50 resources is killed (SIGKILL to its whole process
 * group) at several points. The recovery docs/resources.md gives (`pulumi cancel`, `pulumi refresh`, `pulumi up`)
 * then converges with nothing made twice and nothing orphaned: an object the service made whose id
 * never reached the state is found again by name or slug.
 *
 * A kill can also land while the local backend saves the stack: its metadata sidecar
 * (`<stack>.json.attrs`, truncated and then written by gocloud's fileblob) is left empty, and every
 * command then fails with "failed to load checkpoint: EOF". The documented first step deletes it.
 */
jest.setTimeout(20 * 60_000);

const COUNT = 50;
/** Kill once this many creates have been answered (the stack makes 45; five connections are managed). */
const KILL_POINTS = (process.env.RELIABILITY_KILL_POINTS ?? "2,15,30").split(",").map(Number);

const isCreate = (r: { method: string; path: string; status: number }) =>
  r.method === "POST" &&
  r.status === 200 &&
  !r.path.includes("/check-destination") &&
  !r.path.includes("/sync-secrets");

describe(`pulumi up of ${COUNT} resources killed with SIGKILL`, () => {
  let env: EngineEnv;
  const orphanCounts: number[] = [];
  beforeAll(async () => {
    env = await engineEnv();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  const cli = (args: string[]) => [...args, "--stack", env.t.stack.name, "--non-interactive"];
  const options = () => ({ cwd: env.t.stack.workspace.workDir, env: { ...process.env, ...env.t.envVars } });
  /** The pulumi CLI as a user runs it, with its exit code and everything it printed. */
  const pulumi = (args: string[]) =>
    promisify(execFile)(path.join(pulumiBinDir(), "pulumi"), cli(args), {
      ...options(),
      maxBuffer: 64 << 20,
      timeout: 10 * 60_000,
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? 1,
        out: `${e.stdout}${e.stderr}`,
      }),
    );

  /** The documented first step: delete metadata sidecars a kill left empty. Returns how many. */
  const deleteCutSidecars = () => {
    const stacksDir = path.join(env.t.stateDir, ".pulumi", "stacks");
    const cut = fs
      .readdirSync(stacksDir, { recursive: true, encoding: "utf8" })
      .map((f) => path.join(stacksDir, f))
      .filter((f) => f.endsWith(".attrs") && fs.statSync(f).size === 0);
    for (const f of cut) fs.rmSync(f);
    return cut.length;
  };
  const CUT_SIDECAR_ERROR = "failed to load checkpoint: EOF";

  /** A preview of the stack as declared shows no create, update, replace or delete. */
  const expectPreviewChangesNothing = async () =>
    expect(changeCounts((await env.t.stack.preview()).changeSummary)).toMatchObject({
      create: 0,
      update: 0,
      replace: 0,
      delete: 0,
    });

  /** Ids the stack's state holds for secretops resources. */
  const idsInState = async () => {
    const state = JSON.parse(await cliStackExport(env.t)) as {
      deployment: { resources?: { type: string; id?: string }[] };
    };
    return new Set(
      (state.deployment.resources ?? []).filter((r) => r.type.includes("secretops") && r.id).map((r) => r.id!),
    );
  };

  it.each(KILL_POINTS)(
    "killed after %i creates: cancel, refresh and up converge, orphans are found again",
    async (killAt) => {
      const tag = `kill${killAt}`;
      const declared = mixedResources(env.emulator.summary, COUNT, tag);
      await env.t.stack.setConfig("resources:secrets", { value: JSON.stringify(declared.secrets), secret: true });
      await env.declare(declared.resources);
      await env.resetRequests();

      const child = spawn(path.join(pulumiBinDir(), "pulumi"), cli(["up", "--yes", "--skip-preview"]), {
        ...options(),
        detached: true, // its own process group
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      while ((await env.requests()).filter(isCreate).length < killAt) {
        if (child.exitCode !== null) throw new Error("pulumi up ended before the kill point");
        await new Promise((r) => setTimeout(r, 10));
      }
      // The whole tree, the provider processes (groups of their own) included.
      const killed = killTree(child.pid!);
      await exited;
      while (killed.some(alive)) await new Promise((r) => setTimeout(r, 50)); // a SIGKILL lands when next scheduled
      const readable = await pulumi(["stack", "export"]);
      if (readable.code !== 0) {
        expect(readable.out).toContain(CUT_SIDECAR_ERROR);
        expect(deleteCutSidecars()).toBeGreaterThan(0);
        console.log(`killed after ${killAt} creates: the kill cut the state's metadata sidecar; deleted it`);
      }

      // What the kill left: objects on the service, some of them (the orphans) not in the state.
      const before = await census(env.client, env.emulator.summary, declared.resources);
      const made = [...before.objects.syncs, ...before.objects.rotations, ...before.objects.profiles];
      const inState = await idsInState();
      const orphans = made.filter((o) => !inState.has(o.id));
      orphanCounts.push(orphans.length);
      console.log(
        `killed after ${killAt} creates: ${made.length} objects on the service, ${orphans.length} not in the state`,
      );

      // The documented recovery, step by step.
      const up = await pulumi(["up", "--yes", "--skip-preview"]);
      expect(up.code).not.toBe(0);
      expect(up.out).toContain("the stack is currently locked");
      expect(await pulumi(["cancel", "--yes"])).toMatchObject({ code: 0 });
      expect(await pulumi(["refresh", "--yes", "--skip-preview"])).toMatchObject({ code: 0 });
      await env.resetRequests();
      const recovered = await env.t.stack.up();
      expect(recovered.summary.result).toBe("succeeded");

      const after = await census(env.client, env.emulator.summary, declared.resources);
      expect(after.missing).toEqual([]);
      expect(after.duplicated).toEqual([]);
      expect(after.undeclared).toEqual([]);
      // Every orphan is in the state now, under its own id: found, not made again.
      const nowInState = await idsInState();
      for (const o of orphans) expect(nowInState.has(o.id)).toBe(true);
      expect(nowInState.size).toBe(COUNT);
      await expectPreviewChangesNothing();

      await env.declare([]);
      await env.t.stack.up();
      expect((await census(env.client, env.emulator.summary, declared.resources)).undeclared).toEqual([]);
    },
  );

  it("a kill that cuts the state's metadata sidecar: the error the docs quote, and deleting the sidecar recovers", async () => {
    const declared = mixedResources(env.emulator.summary, 4, "sidecar");
    await env.t.stack.setConfig("resources:secrets", { value: JSON.stringify(declared.secrets), secret: true });
    await env.declare(declared.resources);
    expect((await env.t.stack.up()).summary.result).toBe("succeeded");

    // What SIGKILL between fileblob's os.Create of the sidecar and its write leaves behind.
    const sidecar = path.join(env.t.stateDir, ".pulumi", "stacks", "resources", `${env.t.stack.name}.json.attrs`);
    expect(fs.statSync(sidecar).size).toBeGreaterThan(0);
    fs.truncateSync(sidecar, 0);
    const broken = await pulumi(["preview"]);
    expect(broken.code).not.toBe(0);
    expect(broken.out).toContain(CUT_SIDECAR_ERROR);

    expect(deleteCutSidecars()).toBe(1);
    await expectPreviewChangesNothing();
    await env.declare([]);
    await env.t.stack.up();
  });

  it("the kills left objects whose ids never reached the state, so the recovery above was put to work", () => {
    expect(orphanCounts).toHaveLength(KILL_POINTS.length);
    expect(orphanCounts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
