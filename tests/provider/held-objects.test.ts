import { providerAgainstEmulator } from "./against-emulator";
import { collectWarnings } from "../../provider/engine-voice";
import { dynamicProvider } from "../../provider/dynamic-provider";
import { certificateProfileDefinition } from "../../provider/certificate-profile";

// A delete never removes an object a resource the program declares holds (provider/held-objects.ts):
// the steps as the engine calls them in one provider process. tests/engine/renames.test.ts runs the
// same under the engine, for every family and both front doors.

describe("objects held by the program's resources", () => {
  const at = providerAgainstEmulator();
  const warnings: string[] = [];
  beforeAll(() => {
    collectWarnings((m) => void warnings.push(m));
  });
  afterAll(() => {
    collectWarnings(undefined);
  });
  beforeEach(() => (warnings.length = 0));

  /** A profile's args, declared by the resource `name` of the program. */
  const declared = (slug: string, name: string) => ({
    projectId: at.emulator.summary.certificatePolicies[0]!.projectId,
    certificatePolicyId: at.emulator.summary.certificatePolicies[0]!.id,
    slug,
    issuerType: "self-signed",
    enrollmentType: "api",
    apiConfig: { autoRenew: false },
    __resourceName: name,
  });
  const exists = (id: string) =>
    at.client.certificateProfiles.get(id).then(
      () => true,
      () => false,
    );

  it("a renamed resource's create takes the object over, and the old resource's delete leaves it", async () => {
    // Each operation is a provider process of its own.
    const first = dynamicProvider(certificateProfileDefinition);
    const made = await first.create((await first.check!({}, declared("held-a", "old-name"))).inputs);

    const next = dynamicProvider(certificateProfileDefinition);
    const renamed = await next.create((await next.check!({}, declared("held-a", "new-name"))).inputs);
    expect(renamed.id).toBe(made.id);
    expect(warnings).toEqual([
      expect.stringContaining(`the resource "new-name" took over CertificateProfile "held-a"`),
    ]);
    await next.delete!(made.id, made.outs);
    expect(await exists(made.id)).toBe(true);
    expect(warnings[1]).toBe(
      `CertificateProfile "held-a" (id ${made.id}) was not deleted: the resource "new-name" holds it now; only the ` +
        `record of the resource that left the program is removed. To rename a resource in place, give it its old ` +
        `name as an alias: aliases: [{ name: "<old name>" }]`,
    );
  });

  it("a resource that diff keeps holds its object; one that diff replaces does not", async () => {
    const first = dynamicProvider(certificateProfileDefinition);
    const kept = await first.create((await first.check!({}, declared("held-b", "kept"))).inputs);
    const replaced = await first.create((await first.check!({}, declared("held-c", "replaced"))).inputs);

    // An update: the program still declares both, one of them now issued by a CA (a replacement).
    const update = dynamicProvider(certificateProfileDefinition);
    const keptNews = (await update.check!(kept.outs, declared("held-b", "kept"))).inputs;
    expect((await update.diff!(kept.id, kept.outs, keptNews)).changes).toBe(false);
    const replacing = {
      ...declared("held-c", "replaced"),
      issuerType: "ca",
      caId: at.emulator.summary.certificateAuthorities[0]!.id,
    };
    const replacedNews = (await update.check!(replaced.outs, replacing)).inputs;
    expect((await update.diff!(replaced.id, replaced.outs, replacedNews)).replaces).toContain("issuerType");
    // Another resource's state holding the object "kept" holds (one renamed in two operations):
    // its delete leaves the object.
    await update.delete!(kept.id, kept.outs);
    expect(await exists(kept.id)).toBe(true);
    expect(warnings).toEqual([expect.stringContaining(`was not deleted: the resource "kept" holds it now`)]);
    // The replacement's first half deletes the object it leaves.
    await update.delete!(replaced.id, replaced.outs);
    expect(await exists(replaced.id)).toBe(false);
  });
});
