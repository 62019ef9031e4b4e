import { providerAgainstEmulator } from "./against-emulator";
import { provider } from "../../provider/provider-process";
import { changedAtIn } from "../../provider/state";

// What a step records of its write (provider/state.ts, `changedAt` and `adoptedAsFound`), which
// `secretops verify` reads: an adoption that wrote nothing records that, and no time; a write
// records the object's `updatedAt` and drops the mark. The time is left out while it is the
// `updatedAt` output, which stands for it, and stored once a refresh sees the object changed since. tests/cli/verify.test.ts and
// tests/engine/import.test.ts run `secretops verify` on what the engine stored.

describe("what a step records of its write", () => {
  const at = providerAgainstEmulator();

  /** A self-signed API profile of the fixture's certificate project, made outside the program. */
  async function madeElsewhere(slug: string) {
    const policy = at.emulator.summary.certificatePolicies[0]!;
    const body = {
      projectId: policy.projectId,
      certificatePolicyId: policy.id,
      slug,
      issuerType: "self-signed",
      enrollmentType: "api",
      apiConfig: { autoRenew: true, renewBeforeDays: 7 },
      description: "made in the web UI",
    } as const;
    return { body, made: await at.client.certificateProfiles.create(body) };
  }

  it("an adoption that finds the object as declared records that it wrote nothing, and no time", async () => {
    const profiles = provider("CertificateProfile");
    const { body, made } = await madeElsewhere("record-as-found");
    const checked = await profiles.check!({}, { ...body, adoptExisting: true });
    expect(checked.failures ?? []).toEqual([]);
    const adopted = await profiles.create(checked.inputs);
    expect(adopted.id).toBe(made.id);
    expect(adopted.outs.adoptedAsFound).toBe(true);
    expect(adopted.outs.changedAt).toBeUndefined();
    // Nothing was written: the service's object is as it was.
    expect((await at.client.certificateProfiles.get(made.id)).updatedAt).toBe(made.updatedAt);

    // A refresh keeps the mark.
    const refreshed = await profiles.read!(made.id, { ...adopted.outs, __provider: "serialized" });
    expect(refreshed.props).toMatchObject({ adoptedAsFound: true });
    expect(refreshed.props.changedAt).toBeUndefined();

    // The next write drops it and records the time of the object's change.
    const news = (await profiles.check!(checked.inputs, { ...body, description: "now the program's" })).inputs;
    const updated = await profiles.update!(made.id, refreshed.props, news);
    const after = await at.client.certificateProfiles.get(made.id);
    expect(after.description).toBe("now the program's");
    expect(changedAtIn(updated.outs!)).toBe(after.updatedAt);
    expect(updated.outs).not.toHaveProperty("changedAt");
    expect(updated.outs!.adoptedAsFound).toBeUndefined();

    // Changed outside the program since: a refresh reports the new updatedAt and keeps the write's time.
    await new Promise((r) => setTimeout(r, 5));
    await at.client.certificateProfiles.update(made.id, { description: "changed outside" });
    const outside = await profiles.read!(made.id, { ...updated.outs!, __provider: "serialized" });
    expect(outside.props.updatedAt).not.toBe(after.updatedAt);
    expect(outside.props.changedAt).toBe(after.updatedAt);
    expect(changedAtIn(outside.props)).toBe(after.updatedAt);
  });

  it("an adoption that changes what it found records the time of its write", async () => {
    const profiles = provider("CertificateProfile");
    const { body, made } = await madeElsewhere("record-changed");
    const checked = await profiles.check!({}, { ...body, description: "the program's", adoptExisting: true });
    const adopted = await profiles.create(checked.inputs);
    expect(adopted.id).toBe(made.id);
    const after = await at.client.certificateProfiles.get(made.id);
    expect(after.description).toBe("the program's");
    expect(changedAtIn(adopted.outs)).toBe(after.updatedAt);
    expect(adopted.outs.adoptedAsFound).toBeUndefined();
  });
});
