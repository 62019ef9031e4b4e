import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TIMEOUTS, runAsync, runSync } from "../../scripts/run-sync";
import { changeCounts, type TestStack } from "../engine/harness";
import { languagesBinDir } from "../engine/native";
import { FIXTURE_LOGIN, upClientsTree, type ClientsTree, type ClientsTreeOutputs } from "./clients-tree";

/**
 * The vendor's Python client (`infisicalsdk` from PyPI, pinned below) against the emulator, as a
 * user installs it (issue 48): a venv, `pip install infisicalsdk==1.0.18`, and a script
 * (python/reads_secrets.py) that logs in with universal auth, reads what a program made through
 * this package wrote, and writes secrets and folders (the client's v2 folder routes: create, get,
 * update, delete). What it writes, `pulumi refresh` finds as drift.
 */
const PYTHON_CLIENT = "infisicalsdk==1.0.18";
jest.setTimeout(15 * 60_000);

let emulator: ClientsTree["emulator"];
let t: TestStack;
let work: string;
let out: ClientsTreeOutputs;

/** Runs the script in the venv; asynchronous, since the emulator answers from this process. */
async function script(creds: { clientId: string; clientSecret: string }, step: "read" | "write" | "folders") {
  const stdout = await runAsync(
    path.join(work, "venv", "bin", "python"),
    [path.join(__dirname, "python", "reads_secrets.py")],
    {
      timeoutMs: TIMEOUTS.quick,
      env: {
        PATH: process.env.PATH ?? "",
        SITE_URL: emulator.url,
        CLIENT_ID: creds.clientId,
        CLIENT_SECRET: creds.clientSecret,
        PROJECT_ID: out.projectId,
        ENVIRONMENT: out.environment,
        SECRET_PATH: out.secretPath,
        STEP: step,
      },
    },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-python-client-"));
  const run = (file: string, args: string[]) =>
    runSync(file, args, { timeoutMs: TIMEOUTS.install, env: { ...process.env, PATH: process.env.PATH ?? "" } });
  run(path.join(languagesBinDir(), "python3"), ["-m", "venv", path.join(work, "venv")]);
  run(path.join(work, "venv", "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", PYTHON_CLIENT]);

  ({ emulator, t, out } = await upClientsTree("python-sdk"));
});
afterAll(async () => {
  await t?.dispose();
  await emulator?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

it.each([
  ["the identity the program made", () => ({ clientId: out.clientId, clientSecret: out.clientSecret })],
  ["the fixture's identity", () => FIXTURE_LOGIN],
])("infisicalsdk logged in as %s reads what the program wrote", async (_name, creds) => {
  expect(await script(creds(), "read")).toEqual({
    tokenType: "Bearer",
    expiresIn: expect.any(Number),
    listed: { DB_URL: "postgres://db.internal/app", API_KEY: "key-one" },
    got: "postgres://db.internal/app",
  });
});

it("what infisicalsdk writes, a refresh finds", async () => {
  const report = await script({ clientId: out.clientId, clientSecret: out.clientSecret }, "write");
  expect(report).toMatchObject({
    created: ["FROM_PY", "py-value"],
    updated: ["API_KEY", "key-from-py"],
    deleted: "DB_URL",
    listed: { API_KEY: "key-from-py", FROM_PY: "py-value" },
  });

  // The refresh reads the changed value (an update) and the deleted secret (gone from state);
  // the preview after it puts both back.
  const refresh = await t.stack.refresh();
  expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 1, delete: 1 });
  const preview = await t.stack.preview();
  expect(changeCounts(preview.changeSummary)).toMatchObject({ update: 1, create: 1 });
});

it("infisicalsdk lists, creates, gets, renames and deletes folders beside the program's", async () => {
  const report = await script({ clientId: out.clientId, clientSecret: out.clientSecret }, "folders");
  expect(report).toMatchObject({
    before: ["app"],
    folder: ["made-by-py", "renamed-by-py", "renamed-by-py", "dev"],
    removed: "gone-by-py",
    after: ["app", "renamed-by-py"],
  });
});
