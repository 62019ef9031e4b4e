import { forTheEngine } from "../../provider/engine-voice";
import { provider } from "../../provider/provider-process";

// What the engine gets from the provider process: every check failure on the resource in the
// `path: rule` words (never by property, which the engine prints with the top-level input's
// value, a secret's in plaintext), and each error once (the dynamic-provider host's stderr echo
// of an error the provider returned is dropped).

describe("the provider as the engine calls it", () => {
  it("reports every check failure on the resource, in path: rule words, without values", async () => {
    const { failures } = await provider("AppConnection").check!(
      {},
      {
        app: "postgres",
        name: "db",
        method: "username-and-password",
        credentials: {
          host: "h",
          port: 5432,
          database: "d",
          username: "u",
          password: "canary-pw-1",
          sslEnabled: false,
          sslRejectUnauthorized: false,
          apiKey: "k",
        },
      },
    );
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^credentials: unknown field "apiKey"; the fields here are host,/),
      },
    ]);
    expect(JSON.stringify(failures)).not.toContain("canary-pw-1");
    const nested = await provider("SecretSync").check!(
      {},
      {
        destination: "github",
        name: "gh",
        projectId: "p",
        connectionId: "6f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a10",
        environment: "dev",
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { owner: "o", repo: "r" },
      },
    );
    expect(nested.failures).toEqual([{ property: "", reason: expect.stringMatching(/^destinationConfig\.scope: /) }]);
  });

  it("drops the host's stderr echo of an error it returned, and nothing else", async () => {
    const printed: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void printed.push(args);
    try {
      const failing = forTheEngine({
        create: async () => ({ id: "x" }),
        delete: async () => {
          throw new Error("connection is in use");
        },
      });
      // What cmd/dynamic-provider does with it: `console.error(`${e}: ${e.stack}`)`, then the callback.
      const e = await failing.delete!("id", {}).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(e?.message).toBe("connection is in use");
      console.error(`${String(e)}: ${e!.stack}`);
      console.error("another line");
      expect(printed).toEqual([["another line"]]);
    } finally {
      console.error = original;
    }
  });
});
