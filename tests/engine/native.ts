import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installPacked } from "../../scripts/packed-install";
import type { SecretOpsClient } from "../../sdk";
import { changeCounts, cliStackExport, repoRoot, storedState, type TestStack } from "./harness";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * What a program in another Pulumi language needs on PATH to reach the native provider: the
 * language hosts (scripts/ensure-pulumi.sh --languages, built once and cached), and the plugin
 * `pulumi-resource-secretops` where npm puts it, node_modules/.bin. No PulumiPlugin.yaml: the
 * engine finds it on PATH.
 */
let languagesBin: string | undefined;
export function languagesBinDir(): string {
  languagesBin ??= runSync("bash", [path.join(repoRoot, "scripts", "ensure-pulumi.sh"), "--languages"], {
    timeoutMs: TIMEOUTS.build,
    stderr: "inherit",
  })
    .trim()
    .split("\n")
    .pop()!;
  return languagesBin;
}

/**
 * The plugin as a user's install has it: this package installed from `npm pack` into a directory
 * of its own (scripts/packed-install.ts), whose node_modules/.bin holds `pulumi-resource-secretops`.
 * `dir` is that bin directory; removed with `dispose`.
 */
export function pluginBinDir(): { dir: string; dispose(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-install-"));
  installPacked(repoRoot, root);
  const dir = path.join(root, "node_modules", ".bin");
  if (!fs.existsSync(path.join(dir, "pulumi-resource-secretops")))
    throw new Error(`no pulumi-resource-secretops in ${dir}`);
  return { dir, dispose: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** The environment of a stack whose program reaches the native provider. */
export function nativeEnv(pluginDir: string): Record<string, string> {
  return { PATH: [languagesBinDir(), pluginDir, process.env.PATH].join(path.delimiter) };
}

/** A copy of a program directory (its Pulumi.yaml edited by `edit`), to run a variant of it; removed with `dispose`. */
export function programVariant(from: string, edit: (text: string) => string): { dir: string; dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-program-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), edit(fs.readFileSync(path.join(from, "Pulumi.yaml"), "utf8")));
  return { dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The examples' other secret values (`apiKey`, `vercelToken`), which no state or output may hold. */
export const EXAMPLE_CANARIES = {
  apiKey: "canary-native-api-key-2b7c41",
  vercelToken: "canary-native-vercel-token-e09d5a",
};

/** The examples' secret config in the project's namespace, the password `password`. */
export const exampleSecretConfig = (namespace: string, password: string) => ({
  [`${namespace}:ordersDbPassword`]: { value: password, secret: true },
  [`${namespace}:apiKey`]: { value: EXAMPLE_CANARIES.apiKey, secret: true },
  [`${namespace}:vercelToken`]: { value: EXAMPLE_CANARIES.vercelToken, secret: true },
});

/** What the native lifecycle runs against: the stack of the example, and the service it manages. */
export interface NativeLifecycle {
  /** The stack of the program, its config from `exampleSecretConfig` with `canaries[0]`. */
  stack(): TestStack;
  client(): SecretOpsClient;
  token(): string;
  passwordKey: string;
  /** The first and the changed password. */
  canaries: readonly [string, string];
}

/** The examples' resources: the tree (2 projects, an environment, 2 folders, a secret, a CA, a policy) and 5 on it. */
const EXAMPLE_RESOURCES = 13;

/**
 * The examples' program in any language, from nothing: a project, its `prod` environment, two
 * folders and a secret; a postgres connection and a rotation through it; a Vercel connection and a
 * sync; a certificate-manager project with a CA, a policy and a profile. Through the native
 * provider: up, a no-change preview, the password changed in place and shown masked, refresh, no
 * secret in state or `pulumi stack export`, destroy, each object checked at the service by id.
 */
export function nativeLifecycleTests(ctx: NativeLifecycle) {
  let outputs: Record<string, string>;
  const log: string[] = [];
  const onOutput = (s: string) => log.push(s);

  test("up makes the tree and what hangs on it at the service", async () => {
    const up = await ctx.stack().stack.up({ onOutput });
    // And the stack (an up's and a destroy's summary count it).
    expect(changeCounts(up.summary.resourceChanges).create).toBe(EXAMPLE_RESOURCES + 1);
    outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, String(v.value)]));
    expect(log.join("")).toMatch(/using pulumi-resource-secretops from \$PATH/);
    const client = ctx.client();
    expect((await client.projects.get(outputs.projectId!)).environments?.map((e) => e.slug)).toContain("prod");
    expect(await client.secrets.getById(outputs.secretId!)).toMatchObject({
      secretKey: "API_KEY",
      secretPath: "/app",
      secretValue: EXAMPLE_CANARIES.apiKey,
    });
    const sync = await client.secretSyncs.get("vercel", outputs.syncId!);
    expect(sync).toMatchObject({ name: "web-to-vercel", projectId: outputs.projectId, folder: { path: "/app" } });
    const rotation = await client.secretRotations.get("postgres-credentials", outputs.rotationId!);
    expect(rotation).toMatchObject({ connectionId: outputs.connectionId, folder: { path: "/app/db" } });
    expect((await client.certificateProfiles.get(outputs.profileId!)).caId).toBe(outputs.caId);
    expect((await client.certificateAuthorities.get(outputs.caId!)).status).toBe("active");
    const connections = await client.appConnections.list("postgres", { projectId: outputs.projectId });
    expect(connections.map((c) => c.id)).toContain(outputs.connectionId);
    expect(outputs.syncStatus).toBe("succeeded");
  });

  test("a second preview shows no changes", async () => {
    const preview = await ctx.stack().stack.preview({ expectNoChanges: true });
    expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
  });

  test("a changed password is an update in place, shown masked", async () => {
    await ctx.stack().stack.setConfig(ctx.passwordKey, { value: ctx.canaries[1], secret: true });
    const preview = await ctx.stack().stack.preview({ diff: true });
    expect(changeCounts(preview.changeSummary)).toMatchObject({ update: 1, replace: 0, create: 0, delete: 0 });
    expect(preview.stdout).toContain("credentials.password: 1 => 2");
    expect(preview.stdout).toContain("[secret]");
    expect(preview.stdout).not.toContain(ctx.canaries[1]);
    const up = await ctx.stack().stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, replace: 0, create: 0, delete: 0 });
    expect(up.outputs.connectionId!.value).toBe(outputs.connectionId);
  });

  test("refresh finds nothing changed, and the next preview shows no changes", async () => {
    const refresh = await ctx.stack().stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 0, delete: 0 });
    await ctx.stack().stack.preview({ expectNoChanges: true });
  });

  test("no secret in the stored state or in `pulumi stack export`", async () => {
    const exported = await cliStackExport(ctx.stack());
    for (const text of [exported, storedState(ctx.stack())]) {
      for (const canary of [...ctx.canaries, ...Object.values(EXAMPLE_CANARIES), ctx.token()])
        expect(text).not.toContain(canary);
    }
    // The password is there, encrypted, not left out.
    expect(exported).toContain("secretops:index:AppConnection");
    expect(exported).toMatch(/"credentials":\s*\{\s*"4dabf18193072939515e22adb298388d"/);
  });

  test("destroy removes what the program made", async () => {
    const destroy = await ctx.stack().stack.destroy();
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(EXAMPLE_RESOURCES + 1);
    const client = ctx.client();
    await expect(client.secretSyncs.get("vercel", outputs.syncId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.certificateProfiles.get(outputs.profileId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.secrets.getById(outputs.secretId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.certificateAuthorities.get(outputs.caId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.projects.get(outputs.projectId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.appConnections.get("postgres", outputs.connectionId!)).rejects.toMatchObject({ status: 404 });
  });
}
