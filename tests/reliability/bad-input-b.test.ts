import { EngineEnv } from "../engine/lifecycle";
import {
  CONNECTIONS,
  badInputEnv,
  badInputTests,
  connArgs,
  connectionMatrixCases,
  connectionOtherCases,
  previewOutcome,
  profileCases,
} from "./bad-input-cases";

// Bad input, second half: certificate profiles and the connection PATCH matrix
// (docs/api-spec.md §4.1, §4.4, §8), the other connection-settings rules, SQL's one-way
// isPlatformManagedCredentials switch, and audit-query rules checked by the SDK before sending.
// See bad-input-cases.ts.
jest.setTimeout(180_000);

describe("bad input fails at preview, naming field and rule, with no API call (profiles, connection matrix)", () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await badInputEnv();
  }, 180_000);
  afterAll(async () => {
    await env?.dispose();
  }, 180_000);

  badInputTests([...profileCases, ...connectionMatrixCases, ...connectionOtherCases], () => env, {
    prefix: "b",
    mergeUpTo: 6,
  });

  // The SDK refuses these audit queries before sending (docs/api-spec.md §4.5, §8).
  it.each([
    [{ limit: 1001 }, "limit: must be at most 1000"],
    [{ environment: "dev" }, "environment: requires projectId"],
    [{ startDate: "yesterday" }, "startDate: must be an ISO 8601 date-time or a Date"],
  ])("SDK audit-log query %j → %s, with no request", async (query, message) => {
    await env.resetRequests();
    await expect(env.client.auditLogs.list(query as never)).rejects.toThrow(message);
    expect(await env.requests()).toEqual([]);
  });

  it('AppConnectionSettings (postgres) isPlatformManagedCredentials turned off once on → "isPlatformManagedCredentials: cannot be turned off once enabled (the switch is one-way)"', async () => {
    const password = "canary-one-way-pg-password-0c9d";
    const credentials = {
      host: "db.internal",
      port: 5432,
      database: "app",
      username: "admin",
      password,
      sslEnabled: true,
      sslRejectUnauthorized: true,
    };
    const declared = (on: boolean) => [
      {
        kind: "AppConnectionSettings",
        name: "one-way",
        args: connArgs("postgres", { isPlatformManagedCredentials: on, credentials }),
      },
    ];
    await env.declare(declared(true));
    await env.t.stack.up();
    expect((await env.client.appConnections.get("postgres", CONNECTIONS.postgres)).isPlatformManagedCredentials).toBe(
      true,
    );

    const { rejected, text, requests } = await previewOutcome(env, declared(false));
    expect(rejected).toBe(true);
    expect(text).toMatch(
      /resource 'one-way' has a problem: isPlatformManagedCredentials: cannot be turned off once enabled \(the switch is one-way\)/,
    );
    expect(text).not.toContain(password);
    expect(text).not.toContain(env.emulator.token);
    expect(requests).toEqual([]);
  });
});
