import { providerAgainstEmulator } from "./against-emulator";
import { dynamicProvider } from "../../provider/dynamic-provider";
import { certificateAuthorityDefinition } from "../../provider/certificate-authority";

// An intermediate CA is signed by its parent after its create (provider/certificate-authority.ts).
// The parent's refusals of that signature (docs/service-api.md §13) are found before the create,
// so nothing is made that its parent would not sign, and the error names the field at fault. Each
// operation is a provider process of its own (a fresh `dynamicProvider`), as under the engine.

describe("an intermediate CA its parent would not sign", () => {
  const at = providerAgainstEmulator();

  const pki = () => at.emulator.summary.certificateAuthorities[0]!.projectId;
  const create = async (name: string, configuration: Record<string, unknown>) => {
    const p = dynamicProvider(certificateAuthorityDefinition);
    const checked = await p.check!({}, { projectId: pki(), name, configuration });
    expect(checked.failures ?? []).toEqual([]);
    return p.create(checked.inputs);
  };
  const names = async () => (await at.client.certificateAuthorities.list(pki())).map((c) => c.name);

  it("is refused before the create, naming the field and the parent's bound", async () => {
    const parent = await create("bounded-root", {
      type: "root",
      commonName: "Bounded Root",
      notAfter: "2040-01-01T00:00:00.500Z",
    });
    const late = create("too-late", {
      type: "intermediate",
      commonName: "Too Late",
      notAfter: "2040-01-01T00:00:00.600Z",
      parentCaId: parent.id,
    });
    await expect(late).rejects.toThrow(
      `configuration.notAfter: must not be after 2040-01-01T00:00:00.000Z, the end of the parent CA "bounded-root"'s certificate (the service refuses: "notAfter date is after CA certificate's notAfter date")`,
    );
    expect(await names()).not.toContain("too-late");

    const limited = await create("limited-root", {
      type: "root",
      commonName: "Limited Root",
      notAfter: "2040-01-01T00:00:00Z",
      maxPathLength: 1,
    });
    const unbounded = create("unbounded", {
      type: "intermediate",
      commonName: "Unbounded",
      notAfter: "2039-01-01T00:00:00Z",
      parentCaId: limited.id,
    });
    await expect(unbounded).rejects.toThrow(
      `configuration.maxPathLength: must be from 0 to 0, under the path length of the parent CA "limited-root" (1)`,
    );
    const missing = create("orphan", {
      type: "intermediate",
      commonName: "Orphan",
      notAfter: "2039-01-01T00:00:00Z",
      parentCaId: "0f0f0f0f-0000-4000-8000-00000000c0aa",
    });
    await expect(missing).rejects.toThrow(
      "configuration.parentCaId: there is no internal CA 0f0f0f0f-0000-4000-8000-00000000c0aa to sign this one",
    );
    expect(await names()).not.toEqual(expect.arrayContaining(["unbounded"]));
    expect(await names()).not.toContain("orphan");

    // Within its parent's bounds it is made and signed.
    const ok = await create("in-bounds", {
      type: "intermediate",
      commonName: "In Bounds",
      notAfter: "2040-01-01T00:00:00Z",
      maxPathLength: 0,
      parentCaId: limited.id,
    });
    expect(ok.outs).toMatchObject({ status: "active" });
  });
});
