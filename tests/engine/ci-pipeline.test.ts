import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EmulatorAdmin, type RequestLogEntry, startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { run, type Run } from "../cli/run";
import { pulumiBinDir, repoRoot } from "./harness";
import { writes } from "./lifecycle";

/**
 * examples/ci: the GitHub Actions workflow's `run:` steps, replayed in order on this machine against
 * the emulator, with a local file backend. GitHub Actions itself cannot run here, so what only the
 * runner provides is stood in for, and nothing else:
 *
 *  - `uses:` steps: checkout is a temporary copy of examples/ci; setup-node is the node running
 *    this test; pulumi/actions is the engine of scripts/ensure-pulumi.sh, put on PATH;
 *  - `npm ci`: secretops-pulumi is not on the registry from here, so the copy's node_modules links
 *    this checkout instead (as scripts/setup.sh does), with `secretops` in node_modules/.bin as
 *    npm would put it;
 *  - `${{ secrets.* }}`, `${{ vars.* }}`: the emulator's URL and token, the stack name, a
 *    passphrase; PULUMI_ACCESS_TOKEN is empty and PULUMI_BACKEND_URL a local file backend;
 *  - `gh`: a stub on PATH that records its arguments (the comment's body is the file it is given).
 */
jest.setTimeout(10 * 60_000);

const exampleDir = path.join(repoRoot, "examples", "ci");
const workflowFile = path.join(exampleDir, ".github", "workflows", "secretops.yml");
const CANARY = "canary-est-passphrase-ci-5d2f81";
const PR_NUMBER = "42";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  defaults?: { run?: { shell?: string } };
  jobs: Record<string, Job>;
}

/** js-yaml: a dependency of @pulumi/pulumi, which reads Pulumi.yaml with it (cli/check.ts does too). */
const yaml = require(
  require.resolve("js-yaml", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }),
) as { load(text: string): unknown };
const workflow = yaml.load(fs.readFileSync(workflowFile, "utf8")) as Workflow;

interface StepRun extends Run {
  step: string;
}

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

describe("examples/ci: the workflow's commands, replayed against the emulator", () => {
  let emulator: Emulator;
  let client: SecretOpsClient;
  let work: string;
  let programDir: string;
  let stateDir: string;
  let ghCalls: string;
  let stack: string;
  const validProgram = fs.readFileSync(path.join(exampleDir, "index.js"), "utf8");

  /** Values of the workflow's `${{ … }}` expressions here; any other expression fails the test. */
  const expressions = (): Record<string, string> => ({
    "vars.PULUMI_STACK": stack,
    "secrets.PULUMI_ACCESS_TOKEN": "",
    "secrets.PULUMI_CONFIG_PASSPHRASE": "ci-pipeline-test-passphrase",
    "vars.SECRETOPS_API_URL": emulator.url,
    "secrets.SECRETOPS_TOKEN": emulator.token,
    "github.token": "stub-github-token",
    "github.event.pull_request.number": PR_NUMBER,
  });
  const substitute = (v: string) =>
    v.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_m, expr: string) => {
      const value = expressions()[expr];
      if (value === undefined) throw new Error(`the replay has no value for \${{ ${expr} }}`);
      return value;
    });
  const envOf = (...maps: (Record<string, string> | undefined)[]) =>
    Object.fromEntries(maps.flatMap((m) => Object.entries(m ?? {})).map(([k, v]) => [k, substitute(String(v))]));

  /** The environment of a step: the runner's basics, the workflow's, the job's and the step's env. */
  function stepEnv(job: Job, step: Step): Record<string, string | undefined> {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(PULUMI_|SECRETOPS_|INFISICAL_|GH_|GITHUB_)/.test(k)),
    );
    return {
      ...inherited,
      CI: "true",
      PATH: [path.join(work, "bin"), pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(
        path.delimiter,
      ),
      npm_config_update_notifier: "false",
      ...envOf(workflow.env, job.env, step.env),
      // The backend: a local directory in place of Pulumi Cloud (PULUMI_ACCESS_TOKEN is empty).
      PULUMI_BACKEND_URL: `file://${stateDir}`,
      PULUMI_HOME: path.join(stateDir, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      GH_CALLS: ghCalls,
    };
  }

  const standIns: Record<string, string> = {
    "actions/checkout@v4": "the temporary copy of examples/ci",
    "actions/setup-node@v4": "the node running this test",
    "pulumi/actions@v6": "scripts/ensure-pulumi.sh's engine on PATH",
  };

  /**
   * Runs a job's `run:` steps in order, as the runner would (bash --noprofile --norc -eo pipefail,
   * in the checkout), and stops at the first that fails, as a job does.
   */
  async function replay(jobName: string): Promise<StepRun[]> {
    const job = workflow.jobs[jobName]!;
    expect(workflow.defaults?.run?.shell).toBe("bash");
    const runs: StepRun[] = [];
    for (const step of job.steps) {
      if (step.uses) {
        expect(standIns).toHaveProperty([step.uses]);
        continue;
      }
      const script = step.run!;
      if (script.trim() === "npm ci") {
        expect(fs.existsSync(path.join(programDir, "node_modules", ".bin", "secretops"))).toBe(true);
        continue;
      }
      const file = path.join(work, "step.sh");
      fs.writeFileSync(file, script);
      const r = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", file], {
        cwd: programDir,
        env: stepEnv(job, step),
      });
      runs.push({ step: step.name ?? script.split("\n")[0]!, ...r });
      if (r.code !== 0) break;
    }
    return runs;
  }

  const admin = () => new EmulatorAdmin(emulator.url);
  const apiRequests = async () => (await admin().requests()).filter((r) => r.path.startsWith("/api/"));
  const resetRequests = () => admin().clearRequests();
  const allOutput = (runs: StepRun[]) => runs.map((r) => r.stdout + r.stderr).join("\n");
  const expectAllSucceeded = (runs: StepRun[], steps: string[]) => {
    expect(runs.map((r) => [r.step, r.code, r.code === 0 ? "" : r.stdout + r.stderr])).toEqual(
      steps.map((s) => [s, 0, ""]),
    );
  };
  /** Runs the pulumi CLI in the program's copy, with the environment of the deploy job's steps. */
  const pulumi = (args: string[]) => run("pulumi", args, { cwd: programDir, env: stepEnv(workflow.jobs.deploy!, {}) });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 100 });
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    work = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-ci-"));
    stack = "ci";
    stateDir = path.join(work, "state");
    programDir = path.join(work, "repo");
    ghCalls = path.join(work, "gh-calls.txt");
    fs.mkdirSync(stateDir);
    // The checkout: what is committed (no local installs or stacks of examples/ci).
    fs.cpSync(exampleDir, programDir, {
      recursive: true,
      filter: (src) => !/^(node_modules|Pulumi\..+\.ya?ml|preview\.(txt|md))$/.test(path.basename(src)),
    });

    // What `npm ci` installs: @pulumi/pulumi, secretops-pulumi and its `secretops` bin.
    const modules = path.join(programDir, "node_modules");
    fs.mkdirSync(path.join(modules, ".bin"), { recursive: true });
    fs.symlinkSync(path.join(repoRoot, "node_modules", "@pulumi"), path.join(modules, "@pulumi"), "dir");
    fs.symlinkSync(repoRoot, path.join(modules, "secretops-pulumi"), "dir");
    const bin = path.join(modules, ".bin", "secretops");
    fs.writeFileSync(
      bin,
      `#!/bin/sh\nexec node ${JSON.stringify(path.join(repoRoot, "dist", "cli", "index.js"))} "$@"\n`,
    );
    fs.chmodSync(bin, 0o755);

    // gh: records its arguments.
    fs.mkdirSync(path.join(work, "bin"));
    fs.writeFileSync(path.join(work, "bin", "gh"), '#!/bin/sh\nprintf "%s\\n" "$*" >> "$GH_CALLS"\n');
    fs.chmodSync(path.join(work, "bin", "gh"), 0o755);

    // The stack, as its owner sets it up once: passphrase secrets, the EST passphrase as secret config.
    for (const args of [
      ["stack", "init", stack, "--secrets-provider", "passphrase"],
      ["config", "set", "--secret", "estPassphrase", CANARY, "--stack", stack],
    ]) {
      const r = await pulumi(args);
      if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")}: ${r.stderr}`);
    }
    expect(fs.readFileSync(path.join(programDir, `Pulumi.${stack}.yaml`), "utf8")).not.toContain(CANARY);
  });

  afterAll(async () => {
    await emulator?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("the workflow runs `preview` on pull requests and `deploy` on pushes to main", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(workflow.jobs.preview!.if).toBe("github.event_name == 'pull_request'");
    expect(workflow.jobs.deploy!.if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
    expect(workflow.env).toMatchObject({ SECRETOPS_TOKEN: "${{ secrets.SECRETOPS_TOKEN }}" });
  });

  it("main, first deploy: `pulumi up` creates the resources and `secretops verify` finds their events", async () => {
    const runs = await replay("deploy");
    expectAllSucceeded(runs, ["pulumi up", "secretops verify"]);
    expect(runs[1]!.stdout).toBe("3 secretops resources verified: each has its create/update event\n");
    const syncs = await client.secretSyncs.list("vercel", "10000000-0000-4000-8000-000000000001");
    expect(syncs.map((s) => `${s.name}: ${s.description}`)).toEqual(["web-prod: Web app prod secrets"]);
  });

  /** The pull request's change: two descriptions (the profile's diff shows its secret input, masked). */
  const changedProgram = () => {
    let program = validProgram;
    for (const [from, to] of [
      ['description: "Web app prod secrets"', 'description: "Web app prod secrets, synced by CI"'],
      [
        'description: "Router and switch identities (EST)"',
        'description: "Router, switch and firewall identities (EST)"',
      ],
    ]) {
      expect(program).toContain(from);
      program = program.replace(from, to);
    }
    return program;
  };

  let previewRuns: StepRun[];
  let previewRequests: RequestLogEntry[];

  it("pull request with a valid change: every command exits 0, and the preview shows the change", async () => {
    fs.writeFileSync(path.join(programDir, "index.js"), changedProgram());
    await resetRequests();
    previewRuns = await replay("preview");
    previewRequests = await apiRequests();

    expectAllSucceeded(previewRuns, ["secretops check", "pulumi preview", "Comment the preview on the pull request"]);
    expect(previewRuns[0]!.stdout).toBe("3 secretops resources checked, all valid\n");
    const preview = fs.readFileSync(path.join(programDir, "preview.txt"), "utf8");
    expect(preview).toMatch(/~ pulumi-nodejs:dynamic\/secretops:SecretSync: \(update\)\n.*\n.*::web-prod\]/);
    expect(preview).toMatch(/~ description\s*: "Web app prod secrets" => "Web app prod secrets, synced by CI"/);
    expect(preview).toMatch(
      /~ pulumi-nodejs:dynamic\/secretops:CertificateProfile: \(update\)\n.*\n.*::network-devices\]/,
    );
    expect(preview).toMatch(
      /~ description\s*: "Router and switch identities \(EST\)" => "Router, switch and firewall identities \(EST\)"/,
    );
    // The secret input, as the reviewer sees it.
    expect(preview).toMatch(/estConfig\s*: \[secret\]/);
    expect(preview).toMatch(/~ 2 to update\n\s+2 unchanged/);
    // The comment: `gh pr comment` on the pull request, with the preview in its body.
    expect(fs.readFileSync(ghCalls, "utf8")).toBe(`pr comment ${PR_NUMBER} --body-file preview.md\n`);
    const body = fs.readFileSync(path.join(programDir, "preview.md"), "utf8");
    expect(body).toContain(`#### \`pulumi preview --diff\` of \`${stack}\`\n\`\`\`\n`);
    expect(body).toContain(preview);
    // CI_PIPELINE_SAMPLE=<file>: keep the preview (the sample of examples/ci/README.md).
    if (process.env.CI_PIPELINE_SAMPLE) fs.writeFileSync(process.env.CI_PIPELINE_SAMPLE, preview);
  });

  it("pull request: no secret and no token in any output, the comment included", () => {
    const outputs = [
      allOutput(previewRuns),
      fs.readFileSync(path.join(programDir, "preview.txt"), "utf8"),
      fs.readFileSync(path.join(programDir, "preview.md"), "utf8"),
    ];
    for (const out of outputs) {
      expect(out).not.toContain(CANARY);
      expect(out).not.toContain(emulator.token);
    }
    // The passphrase is in the program, read as a secret.
    expect(fs.readFileSync(path.join(programDir, `Pulumi.${stack}.yaml`), "utf8")).toMatch(/estPassphrase:\s+secure: /);
  });

  it("pull request: nothing is written to the service", () => {
    // The preview's diff is computed from state and the program: at most reads reach the service.
    expect(writes(previewRequests)).toEqual([]);
    expect(previewRequests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("pull request with several mistakes: `secretops check` fails naming every field, and nothing runs after it", async () => {
    const mistakes: [string, string][] = [
      ['name: "web-prod"', 'name: "Web_Prod"'],
      ["rotationInterval: 30", "rotationInterval: 0"],
      ["rotateAtUtc: { hours: 4", "rotateAtUtc: { hours: 24"],
      ['slug: "network-devices"', 'slug: "Network Devices"'],
    ];
    let program = validProgram;
    for (const [from, to] of mistakes) {
      expect(program).toContain(from);
      program = program.replace(from, to);
    }
    fs.writeFileSync(path.join(programDir, "index.js"), program);
    for (const f of ["preview.txt", "preview.md", ghCalls]) fs.rmSync(path.join(programDir, f), { force: true });
    await resetRequests();
    const runs = await replay("preview");

    expect(runs.map((r) => [r.step, r.code])).toEqual([["secretops check", 1]]);
    // One line per invalid field (sorted: resources register asynchronously).
    const lines = runs[0]!.stdout.trim().split("\n").sort();
    expect(lines).toEqual([
      expect.stringMatching(/^CertificateProfile network-devices: slug: \S/),
      expect.stringMatching(/^SecretRotation cache-credentials: rotateAtUtc\.hours: \S/),
      expect.stringMatching(/^SecretRotation cache-credentials: rotationInterval: \S/),
      expect.stringMatching(/^SecretSync web-prod: name: \S/),
    ]);
    expect(runs[0]!.stderr).toContain("3 of 3 secretops resources invalid (4 problems)");
    expect(allOutput(runs)).not.toContain(CANARY);
    expect(allOutput(runs)).not.toContain(emulator.token);
    for (const f of ["preview.txt", "preview.md", ghCalls]) expect(fs.existsSync(path.join(programDir, f))).toBe(false);
    expect(writes(await apiRequests())).toEqual([]);
  });

  it("main, after merging the valid change: `pulumi up` applies it and `secretops verify` finds its event", async () => {
    fs.writeFileSync(path.join(programDir, "index.js"), changedProgram());
    await resetRequests();
    const runs = await replay("deploy");
    expectAllSucceeded(runs, ["pulumi up", "secretops verify"]);
    expect(runs[0]!.stdout).toMatch(/~ 2 updated/);
    expect(runs[1]!.stdout).toBe("3 secretops resources verified: each has its create/update event\n");
    expect(allOutput(runs)).not.toContain(CANARY);
    expect(allOutput(runs)).not.toContain(emulator.token);
    const syncs = await client.secretSyncs.list("vercel", "10000000-0000-4000-8000-000000000001");
    expect(syncs.map((s) => `${s.name}: ${s.description}`)).toEqual(["web-prod: Web app prod secrets, synced by CI"]);
    const profiles = await client.certificateProfiles.list({ projectId: "10000000-0000-4000-8000-000000000001" });
    expect(profiles.certificateProfiles.map((p) => `${p.slug}: ${p.description}`)).toEqual([
      "network-devices: Router, switch and firewall identities (EST)",
    ]);
    // The up wrote exactly the change: one PATCH of the sync, one of the profile.
    expect(writes(await apiRequests()).map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
  });
});
