#!/usr/bin/env node
// `npm run demo`, the main job: starts the emulator, runs `pulumi up` on the quickstart (the root
// Pulumi.yaml's program) with a local backend, checks that a second preview shows no changes,
// prints the outputs and the audit events the run produced, and stops the emulator.
// `npm run demo` runs scripts/setup.sh first (dependencies, build, engine).
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");
const { startEmulator } = require("../dist/emulator");
const { SecretOpsClient } = require("../dist/sdk");

const repo = path.resolve(__dirname, "..");
const step = (msg) => console.log(`\n== ${msg}`);

async function main() {
  // Cached by `npm run demo`'s set-up just before: instant. Under coreutils' `timeout`, which ends
  // the script and what it started, as scripts/run-sync.ts does for the tests.
  const bin = execFileSync(
    "timeout",
    ["--kill-after=5", "1800", "bash", path.join(repo, "scripts", "ensure-pulumi.sh")],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  )
    .trim()
    .split("\n")
    .pop();

  step("starting the emulator");
  const emulator = await startEmulator({ port: 0 });
  console.log(`emulator at ${emulator.url} (default fixture, the service's real rate limits)`);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-demo-"));
  const stackName = "demo";
  let stack;
  try {
    const pulumiCommand = await PulumiCommand.get({ root: path.dirname(bin) });
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: repo },
      {
        pulumiCommand,
        secretsProvider: "passphrase",
        envVars: {
          PULUMI_BACKEND_URL: `file://${stateDir}`,
          PULUMI_CONFIG_PASSPHRASE: "demo-passphrase",
          PULUMI_HOME: path.join(stateDir, ".pulumi-home"),
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        },
      },
    );
    await stack.setConfig("secretops:apiUrl", { value: emulator.url });
    await stack.setConfig("secretops:token", { value: emulator.token, secret: true });
    // The quickstart's secret values, as a user sets them with `pulumi config set --secret`.
    const random = () => require("node:crypto").randomBytes(18).toString("base64url");
    for (const [key, value] of Object.entries({
      apiUrl: "https://api.example.com",
      apiKey: random(),
      vercelToken: random(),
      databasePassword: random(),
    })) {
      await stack.setConfig(`secretops-quickstart:${key}`, { value, secret: true });
    }
    const startedAt = new Date(Date.now() - 1000).toISOString();

    step("pulumi up (examples/quickstart)");
    const up = await stack.up({ onOutput: (s) => process.stdout.write(s) });
    if (up.summary.result !== "succeeded") throw new Error(`pulumi up ended with ${up.summary.result}`);

    step("pulumi preview (must show no changes)");
    const preview = await stack.preview({ onOutput: (s) => process.stdout.write(s) });
    const changes = Object.entries(preview.changeSummary).filter(([op, n]) => op !== "same" && n > 0);
    if (changes.length) throw new Error(`the second preview is not empty: ${JSON.stringify(preview.changeSummary)}`);
    console.log(`no changes: ${JSON.stringify(preview.changeSummary)}`);

    step("outputs");
    for (const [name, out] of Object.entries(await stack.outputs())) {
      console.log(`${name.padEnd(24)} ${out.secret ? "[secret]" : JSON.stringify(out.value)}`);
    }

    step("audit events of this run (oldest first)");
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token });
    const entries = [];
    for await (const e of client.auditLogs.iterate({ startDate: startedAt })) entries.push(e);
    for (const e of entries.reverse()) {
      const m = e.event.metadata;
      const what =
        m.name ?? m.slug ?? m.folderPath ?? m.secretKey ?? m.connectionName ?? m.syncName ?? m.rotationName ?? "";
      console.log(
        `${e.createdAt}  ${e.event.type.padEnd(32)} ${String(what).padEnd(24)} ${e.actor.type}/${e.userAgentType}`,
      );
    }
    console.log(`${entries.length} events`);
  } finally {
    if (stack) await stack.workspace.removeStack(stackName, { force: true }).catch(() => {});
    fs.rmSync(path.join(repo, `Pulumi.${stackName}.yaml`), { force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
    await emulator.stop();
    console.log("\nemulator stopped");
  }
}

main().catch((e) => {
  console.error(`\ndemo failed: ${e.message ?? e}`);
  process.exit(1);
});
