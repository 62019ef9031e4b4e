import * as path from "node:path";
import { type AdminAuditEntry, EmulatorAdmin, startEmulator } from "../../emulator";
import { firstLine, secretops } from "./run";

const programs = path.join(__dirname, "programs");

describe("secretops --help", () => {
  it.each([[], ["emulator"], ["check"], ["audit"], ["verify"]])(
    "secretops %s --help exits 0 with usage",
    async (...cmd) => {
      const r = await secretops([...cmd, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: secretops ${cmd.length ? `${cmd[0]} ` : ""}`);
    },
  );

  it("an unknown command or flag is bad usage (exit 2)", async () => {
    expect((await secretops(["nope"])).code).toBe(2);
    const r = await secretops(["audit", "--no-such-flag"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--no-such-flag'");
  });
});

describe("secretops emulator", () => {
  it("--json prints one JSON line with its url and token, and stops on SIGTERM", async () => {
    const emu = firstLine(process.execPath, [
      path.resolve(__dirname, "../../dist/cli/index.js"),
      "emulator",
      "--json",
      "--port",
      "0",
    ]);
    try {
      const summary = JSON.parse(await emu.line);
      expect(summary.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(typeof summary.token).toBe("string");
      expect((await fetch(`${summary.url}/api/v1/organization/audit-logs`)).status).toBe(401);
    } finally {
      await emu.stop();
    }
    expect(emu.child.exitCode).toBe(0);
  });
});

describe("secretops check", () => {
  it("lists every invalid field of every resource in preview's words, and exits 1", async () => {
    const r = await secretops(["check", path.join(programs, "invalid")]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split("\n").sort();
    expect(lines).toEqual([
      "CertificateProfile bad-profile: slug: may only contain lowercase letters, digits and hyphens (^[a-z0-9-]+$)",
      "SecretRotation bad-rotation: rotationInterval: must be at least 1 (days)",
      // The same reason `pulumi preview` gives (tests/engine/behaviours.test.ts).
      'SecretSync bad-sync: name: name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")',
    ]);
    expect(r.stderr).toContain("3 of 3 secretops resources invalid");
  });

  it("refuses two syncs of the program to one destination, naming both, as preview does", async () => {
    const r = await secretops(["check", path.join(programs, "duplicate-destination")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'SecretSync web-b: destinationConfig: SecretSync "web-b" and SecretSync "web-a" of this program both sync to this destination through the same connection, and two syncs would overwrite each other\'s secrets; point one of them elsewhere or set allowDuplicateDestination: true on it\n',
    );
    expect(r.stderr).toContain("1 of 2 secretops resources invalid");
  });

  it("passes a valid program reading stack config and a secret arg, and exits 0", async () => {
    const r = await secretops(["check"], { cwd: path.join(programs, "valid") });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("2 secretops resources checked, all valid\n");
    expect(r.code).toBe(0);
  });

  it("takes config from --config, and says what it cannot do", async () => {
    const bad = await secretops(["check", path.join(programs, "invalid"), "--config", "projectId="]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^SecretSync bad-sync: projectId: .+$/m);
    const missing = await secretops(["check", path.join(programs, "nowhere")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such directory");
  });
});

describe("secretops audit", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let env: Record<string, string>;
  const now = Date.now();
  const project = () => emulator.summary.projects[0]!.id;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
    env = { SECRETOPS_API_URL: emulator.url, SECRETOPS_TOKEN: emulator.token, INFISICAL_TOKEN: "" };
    const entries: AdminAuditEntry[] = [
      // More than a page (1000), so the command must follow pages.
      ...Array.from({ length: 1200 }, (_, i) => ({
        createdAt: new Date(now - (i + 1) * 1000).toISOString(),
        projectId: project(),
        event: {
          type: "update-secret-sync" as const,
          metadata: { syncId: `sync-${i}`, environment: "dev", secretPath: "/app" },
        },
      })),
      ...Array.from({ length: 5 }, (_, i) => ({
        createdAt: new Date(now - 2 * 3_600_000 - i * 1000).toISOString(),
        projectId: project(),
        event: { type: "create-certificate-profile" as const, metadata: { certificateProfileId: `profile-${i}` } },
      })),
    ];
    expect(await new EmulatorAdmin(emulator.url).insertAuditLogs(entries)).toBe(entries.length);
  });
  afterAll(() => emulator?.stop());

  it("--format json: one array of every page, newest first", async () => {
    const r = await secretops(
      ["audit", "--project", project(), "--event-type", "update-secret-sync", "--since", "1h", "--format", "json"],
      { env },
    );
    expect(r.stderr).toBe(""); // no progress when stderr is not a terminal
    expect(r.code).toBe(0);
    const entries = JSON.parse(r.stdout) as { event: { metadata: { syncId: string } } }[];
    expect(entries).toHaveLength(1200);
    expect(entries[0]!.event.metadata.syncId).toBe("sync-0");
    expect(entries[1199]!.event.metadata.syncId).toBe("sync-1199");
  });

  it("--format ndjson: one line per entry, with metadata and limit filters", async () => {
    const one = await secretops(["audit", "--metadata", "syncId=sync-7", "--since", "1h", "--format", "ndjson"], {
      env,
    });
    expect(one.code).toBe(0);
    const lines = one.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).event.metadata.syncId).toBe("sync-7");
    const limited = await secretops(["audit", "--since", "1h", "--limit", "5"], { env }); // ndjson when piped
    expect(limited.stdout.trim().split("\n")).toHaveLength(5);
  });

  it("--format table: a header, one row per entry and a count", async () => {
    const r = await secretops(
      ["audit", "--event-type", "create-certificate-profile", "--since", "3h", "--until", "1h", "--format", "table"],
      { env },
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^TIME\s+EVENT\s+ACTOR\s+PROJECT\s+METADATA$/);
    expect(lines.slice(1, 6).every((l) => l.includes("create-certificate-profile"))).toBe(true);
    expect(lines[1]).toContain("certificateProfileId=profile-0");
    expect(lines[6]).toBe("5 entries");
  });

  it("bad filters are bad usage (exit 2) naming the flag, before anything is sent", async () => {
    const r = await secretops(["audit", "--environment", "dev"], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--environment: requires projectId (--project)");
    const since = await secretops(["audit", "--since", "yesterday"], { env });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain("--since: must be a duration");
    const order = await secretops(["audit", "--since", "1h", "--until", "2h"], { env });
    expect(order.code).toBe(2);
    expect(order.stderr).toContain("--until: End date cannot be before start date");
    const type = await secretops(["audit", "--event-type", "no-such-event"], { env });
    expect(type.code).toBe(2);
    expect(type.stderr).toContain('--event-type: unknown event type "no-such-event"');
  });

  it("refuses a plain http --api-url for a host other than loopback unless --allow-insecure-http", async () => {
    const canary = "canary-token-51d2";
    const r = await secretops(["audit", "--api-url", "http://0.0.0.0:9"], { env: { ...env, SECRETOPS_TOKEN: canary } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "secretops:apiUrl uses plain http for 0.0.0.0, which would send the token unencrypted across the network",
    );
    expect(r.stderr).toContain("from the command line: --api-url, --token-env, --allow-insecure-http");
    expect(r.stdout + r.stderr).not.toContain(canary);
  });

  it("a refused token fails with exit 1 and is never printed", async () => {
    const canary = "canary-token-7f3e";
    const r = await secretops(["audit"], { env: { ...env, SECRETOPS_TOKEN: canary } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("403");
    expect(r.stdout + r.stderr).not.toContain(canary);
    const unset = await secretops(["audit", "--token-env", "NO_SUCH_VAR"], { env });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain("NO_SUCH_VAR is not set");
  });
});
