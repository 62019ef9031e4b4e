import { SecretOpsClient, SecretOpsValidationError, issuesFromZod, type Issue } from "../../sdk";
import { z } from "zod";
import { secretSyncCreateSchema, strictObject, syncDestinationRow, uuid } from "../../sdk/schemas";
import { dynamicProvider } from "../../provider/dynamic-provider";
import { secretSyncDefinition } from "../../provider/secret-sync";
import { appConnectionSettingsDefinition } from "../../provider/app-connection-settings";
import type { RunningEmulator } from "../../emulator";
import { type Api, FX, expect422, start } from "../emulator/helpers";

/**
 * A required field left out reads `is required`, in the same words wherever it is caught: the
 * SDK before sending, the providers' `check` (what `pulumi preview` shows) and the emulator's
 * 422. Zod 4 alone would report a missing enum as a wrong value ("must be one of the options …")
 * and a missing UUID as "must be a UUID"; a value given but wrong keeps its rule.
 */

/** A github sync without `destinationConfig.scope` (an enum), `connectionId` (a UUID) and `syncOptions.initialSyncBehavior` (an enum). */
const body = {
  name: "web-prod",
  projectId: FX.projectId,
  environment: "prod",
  secretPath: "/",
  syncOptions: {},
  destinationConfig: { owner: "o", repo: "r" },
};
const missing: Issue[] = [
  { path: "connectionId", message: "is required" },
  { path: "syncOptions.initialSyncBehavior", message: "is required" },
  { path: "destinationConfig.scope", message: "is required" },
];

test("the shared schema: a missing field is required, a wrong one keeps its rule", () => {
  const schema = secretSyncCreateSchema(syncDestinationRow("github")!);
  const parsed = schema.safeParse(body);
  expect(issuesFromZod(parsed.error!.issues)).toEqual(expect.arrayContaining(missing));
  const wrong = schema.safeParse({
    ...body,
    connectionId: "nope",
    syncOptions: { initialSyncBehavior: "overwrite" },
    destinationConfig: { scope: "repo", owner: "o", repo: "r" },
  });
  expect(issuesFromZod(wrong.error!.issues)).toEqual(
    expect.arrayContaining([
      { path: "connectionId", message: "must be a UUID" },
      {
        path: "syncOptions.initialSyncBehavior",
        message:
          'must be one of the options "overwrite-destination", "import-prioritize-source", "import-prioritize-destination"',
      },
      {
        path: "destinationConfig.scope",
        message: 'must be one of the options "organization", "repository", "repository-environment"',
      },
    ]),
  );
});

test("a missing nullable, union or piped field is required, not its inner schema's rule", () => {
  const schema = strictObject({
    gatewayId: uuid.nullable(),
    connectionId: z.union([uuid, z.null()]),
    path: uuid.transform((v) => v.toLowerCase()),
  });
  expect(issuesFromZod(schema.safeParse({}).error!.issues)).toEqual([
    { path: "gatewayId", message: "is required" },
    { path: "connectionId", message: "is required" },
    { path: "path", message: "is required" },
  ]);
  expect(issuesFromZod(schema.safeParse({ gatewayId: "x", connectionId: "x", path: "x" }).error!.issues)).toEqual([
    { path: "gatewayId", message: "must be a UUID" },
    { path: "connectionId", message: "must be a UUID" },
    { path: "path", message: "must be a UUID" },
  ]);
});

test("the SDK says it before sending", async () => {
  // Nothing listens there: a request that left the process would fail with another error.
  const client = new SecretOpsClient({ baseUrl: "http://127.0.0.1:9", token: "t" }, { rateLimit: false });
  const err = await client.secretSyncs.create("github", body as never).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SecretOpsValidationError);
  expect((err as SecretOpsValidationError).issues).toEqual(expect.arrayContaining(missing));
});

test("the provider's check (pulumi preview) says it", async () => {
  const { failures } = await dynamicProvider(secretSyncDefinition).check!(
    {},
    { ...body, destination: "github", __resourceName: "web-prod" },
  );
  expect(failures).toEqual(missing.map((i) => ({ property: i.path, reason: i.message })));
  const settings = await dynamicProvider(appConnectionSettingsDefinition).check!(
    {},
    { app: "postgres", connectionId: FX.connection("postgres").id, credentials: { host: "h" }, __resourceName: "s" },
  );
  // A coerced number (`port`) is coerced before zod checks it, so a missing one reads "must be a number".
  expect(settings.failures).toEqual(
    expect.arrayContaining(
      ["database", "username", "password", "sslEnabled", "sslRejectUnauthorized"].map((f) => ({
        property: `credentials.${f}`,
        reason: "is required",
      })),
    ),
  );
});

describe("the emulator's 422", () => {
  let emu: RunningEmulator;
  let api: Api;
  beforeAll(async () => ({ emu, api } = await start()));
  afterAll(() => emu.stop());

  test("says it, per missing field", async () => {
    const res = await api.post("/api/v1/secret-syncs/github", body);
    expect422(res, ["connectionId"], "is required");
    expect422(res, ["syncOptions", "initialSyncBehavior"], "is required");
    expect422(res, ["destinationConfig", "scope"], "is required");
  });
});
