import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { installPacked } from "../../scripts/packed-install";
import { run } from "../cli/run";
import { pulumiBinDir, repoRoot } from "../engine/harness";

// The policy pack as examples/policy/README.md tells a user to run it: in a program with the packed
// package installed, `npm install --save-dev @pulumi/policy`, then `pulumi preview --policy-pack
// node_modules/secretops-pulumi/examples/policy` with node_modules/.bin on PATH, where npm put the
// package's launcher `pulumi-analyzer-policy-node`.
jest.setTimeout(10 * 60_000);

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const INSTALL = "npm install --save-dev @pulumi/policy";
const PREVIEW =
  'PATH="$PWD/node_modules/.bin:$PATH" pulumi preview --policy-pack node_modules/secretops-pulumi/examples/policy';

/** A production rotation every `days` days (the pack allows at most 90). */
const program = (days: number) => `const { SecretRotation } = require("secretops-pulumi");
new SecretRotation("orders-db", {
  type: "postgres-credentials",
  name: "orders-db",
  projectId: "10000000-0000-4000-8000-000000000001",
  connectionId: "50000000-0000-4000-8000-000000000002",
  environment: "prod",
  secretPath: "/app/db",
  rotationInterval: ${days},
  parameters: { username1: "orders_a", username2: "orders_b" },
  secretsMapping: { username: "DB_USER", password: "DB_PASSWORD" },
});
`;

let emulator: Emulator;
let dir: string;
let env: Record<string, string>;
/** Runs a command line as the user types it, in the program's directory. */
const shell = (line: string) => run("bash", ["-c", line], { cwd: dir, env });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-policy-user-"));
  installPacked(repoRoot, dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: policy-user\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "index.js"), program(30));
  const state = path.join(dir, ".state");
  fs.mkdirSync(state);
  env = {
    PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${state}`,
    PULUMI_HOME: path.join(state, ".pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: "policy-user-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    SECRETOPS_API_URL: emulator.url,
    SECRETOPS_TOKEN: emulator.token,
    npm_config_prefer_offline: "true",
  };
  const init = await shell("pulumi stack init prod --non-interactive");
  if (init.code !== 0) throw new Error(init.stderr);
});

afterAll(async () => {
  await emulator?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the policy pack, from the packed package, as documented", () => {
  it("the package brings the pack and its launcher; the user adds @pulumi/policy", async () => {
    const pkg = path.join(dir, "node_modules", "secretops-pulumi");
    expect(fs.existsSync(path.join(pkg, "examples", "policy", "PulumiPolicy.yaml"))).toBe(true);
    const launcher = path.join(dir, "node_modules", ".bin", "pulumi-analyzer-policy-node");
    expect(fs.realpathSync(launcher)).toBe(fs.realpathSync(path.join(pkg, "scripts", "pulumi-analyzer-policy-node")));
    const install = await shell(`${INSTALL} --no-audit --no-fund --loglevel=error`);
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
  });

  it("a violation fails the preview, naming the policy, the resource and the limit", async () => {
    fs.writeFileSync(path.join(dir, "index.js"), program(91));
    const r = await shell(PREVIEW);
    const output = r.stdout + r.stderr;
    expect(r.code).not.toBe(0);
    // The launcher npm installed ran the pack (the CLI names the plugin it found on PATH).
    expect(output).toContain(
      `using pulumi-analyzer-policy-node from $PATH at ${path.join(dir, "node_modules", ".bin", "pulumi-analyzer-policy-node")}`,
    );
    expect(output).toContain("secretops-security@v0.1.0");
    expect(output).toMatch(
      /\[mandatory\]\s+rotation-interval-max-90-days\s+\(pulumi-nodejs:dynamic\/secretops:SecretRotation: orders-db\)/,
    );
    expect(output).toContain('SecretRotation "orders-db": rotationInterval is 91 days; it must be at most 90 days.');
  });

  it("a program within the rules previews, with the pack run", async () => {
    fs.writeFileSync(path.join(dir, "index.js"), program(30));
    const r = await shell(PREVIEW);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("secretops-security@v0.1.0");
    expect(r.stdout).not.toContain("[mandatory]");
  });
});
