import { providerModuleText } from "../../provider/program-side";

/**
 * The bench's floor (scripts/bench-floor) registers its no-op resources with the `__provider` the
 * package writes for its own, but for the module it names: so the floor measures the engine on the
 * same path, and the package's time over it is what the package does.
 */
describe("the bench's floor", () => {
  it("writes the package's __provider text, naming its own runtime module", () => {
    const floor = require("../../scripts/bench-floor") as { PROVIDER: string };
    expect(floor.PROVIDER).toBe(
      providerModuleText("SecretSync").replace(
        '"secretops-pulumi/runtime/SecretSync"',
        '"secretops-bench-floor/runtime"',
      ),
    );
  });

  it("serves a provider that answers create and update with what it was given", async () => {
    const runtime = require("../../scripts/bench-floor/runtime") as {
      create(inputs: object): Promise<{ id: string; outs: object }>;
      update(id: string, olds: object, news: object): Promise<{ outs: object }>;
    };
    const made = await runtime.create({ name: "a" });
    expect(made.outs).toEqual({ name: "a" });
    expect(made.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await runtime.update(made.id, { name: "a" }, { name: "b" })).toEqual({ outs: { name: "b" } });
  });
});
