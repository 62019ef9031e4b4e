import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installPacked } from "../../scripts/packed-install";
import { firstLine, run } from "./run";

// From a fresh directory: `npm install <the packed package>`, then `npx secretops ...`.
jest.setTimeout(10 * 60_000);

const repoRoot = path.resolve(__dirname, "..", "..");

describe("secretops from the packed package", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-cli-"));
  beforeAll(() => {
    installPacked(repoRoot, dir);
    for (const f of ["index.js", "Pulumi.yaml"]) {
      fs.copyFileSync(path.join(__dirname, "programs", "invalid", f), path.join(dir, f));
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("npx secretops emulator --json prints its line", async () => {
    const emu = firstLine("npx", ["--no", "secretops", "emulator", "--json", "--port", "0"], { cwd: dir });
    try {
      const summary = JSON.parse(await emu.line);
      expect(summary.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(summary.token).toBeTruthy();
    } finally {
      await emu.stop();
    }
  });

  it("npx secretops check lists all three invalid resources and exits 1", async () => {
    const r = await run("npx", ["--no", "secretops", "check"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^SecretSync bad-sync: name: /m);
    expect(r.stdout).toMatch(/^SecretRotation bad-rotation: rotationInterval: /m);
    expect(r.stdout).toMatch(/^CertificateProfile bad-profile: slug: /m);
  });
});
