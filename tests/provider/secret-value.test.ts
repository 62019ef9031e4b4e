import { providerAgainstEmulator } from "./against-emulator";
import { provider } from "../../provider/provider-process";

// A Secret's value is the one thing a program must never lose (issue 45): left out, the resource
// manages the key and metadata and never writes the value; given, it is written only when it
// differs from what the service holds, an import and an adoption included. The engine tests
// (tests/engine/secret-import.test.ts, native-python.test.ts) run the same under the engine.

const secrets = provider("Secret");
const CANARY = "canary-secret-value-4b1e7d";

describe("a Secret's value", () => {
  const at = providerAgainstEmulator();
  let place: { projectId: string; environment: string; secretPath: string };
  let n = 0;
  /** A secret made outside the program, as `pulumi import` or `adoptExisting` finds one. */
  const madeOutside = async (value = CANARY) => {
    const secretName = `MADE_OUTSIDE_${++n}`;
    const made = await at.client.secrets.create(secretName, { ...place, secretValue: value, secretComment: "outside" });
    return { secretName, made };
  };
  const versionOf = async (secretName: string) => (await at.client.secrets.get(secretName, place)).version;

  beforeAll(() => {
    const p = at.emulator.summary.projects[0]!;
    place = { projectId: p.id, environment: p.environments[0]!, secretPath: "/" };
  });

  it("is required to create a secret: a new one without it fails check, naming the field and the rule", async () => {
    const { failures } = await secrets.check!({}, { ...place, secretName: "NO_VALUE" });
    // The engine shows a failure as `property: reason` (provider/engine-voice.ts).
    expect(failures).toEqual([
      {
        property: "",
        reason:
          "secretValue: is required to create a secret; leave it out only for a secret that exists (imported, or " +
          "adoptExisting: true), whose value the resource then leaves as it is",
      },
    ]);
  });

  it("left out with adoptExisting and nothing to adopt: the create fails in the same words before any write", async () => {
    const checked = await secrets.check!({}, { ...place, secretName: "NOTHING_TO_ADOPT", adoptExisting: true });
    expect(checked.failures ?? []).toEqual([]);
    await expect(secrets.create(checked.inputs)).rejects.toThrow(
      "secretValue: is required to create a secret; leave it out only for a secret that exists",
    );
    await expect(at.client.secrets.get("NOTHING_TO_ADOPT", place)).rejects.toMatchObject({ status: 404 });
  });

  it("after an import's read, the same value or none is no change; another value is one", async () => {
    const { secretName, made } = await madeOutside();
    // `pulumi import`: a read with no state, whose inputs become the program's code.
    const imported = await secrets.read!(made.id, {});
    expect(imported.inputs).toMatchObject({ ...place, secretName, secretComment: "outside" });
    expect(imported.inputs).not.toHaveProperty("secretValue");
    expect(JSON.stringify(imported)).not.toContain(CANARY);
    const olds = imported.inputs!;
    const outs = imported.props!;

    for (const news of [olds, { ...olds, secretValue: CANARY }]) {
      const checked = await secrets.check!(olds, news);
      expect(checked.failures ?? []).toEqual([]);
      expect((await secrets.diff!(made.id, outs, checked.inputs)).changes).toBe(false);
    }
    const other = await secrets.check!(olds, { ...olds, secretValue: "another value" });
    expect(await secrets.diff!(made.id, outs, other.inputs)).toMatchObject({ changes: true, replaces: [] });
    expect(await versionOf(secretName)).toBe(made.version);
  });

  it("left out, an update of its metadata sends no value and keeps the hash of the one the service holds", async () => {
    const { secretName, made } = await madeOutside();
    const imported = await secrets.read!(made.id, {});
    const news = { ...imported.inputs!, secretComment: "changed by the program" };
    const checked = await secrets.check!(imported.inputs!, news);
    const updated = await secrets.update!(made.id, imported.props!, checked.inputs);
    const now = await at.client.secrets.get(secretName, place);
    expect(now).toMatchObject({ secretValue: CANARY, secretComment: "changed by the program" });
    // The program then gives the value the service holds: no change.
    const withValue = await secrets.check!(checked.inputs, { ...news, secretValue: CANARY });
    expect((await secrets.diff!(made.id, updated.outs!, withValue.inputs)).changes).toBe(false);
  });

  it("adoption writes nothing when the program's value is the service's, and writes a different one", async () => {
    const same = await madeOutside();
    const adopt = async (secretName: string, value: string) => {
      const args = { ...place, secretName, secretValue: value, secretComment: "outside", adoptExisting: true };
      const checked = await secrets.check!({}, args);
      expect(checked.failures ?? []).toEqual([]);
      return secrets.create(checked.inputs);
    };
    const adopted = await adopt(same.secretName, CANARY);
    expect(adopted.id).toBe(same.made.id);
    expect(await versionOf(same.secretName)).toBe(same.made.version);
    expect(JSON.stringify(adopted.outs)).not.toContain(CANARY);

    const differing = await madeOutside();
    await adopt(differing.secretName, "the program's value");
    const now = await at.client.secrets.get(differing.secretName, place);
    expect(now.secretValue).toBe("the program's value");
    expect(now.version).toBe(differing.made.version! + 1);
  });
});
