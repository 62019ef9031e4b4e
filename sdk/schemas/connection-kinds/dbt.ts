import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/dbt/dbt-connection-schemas.ts`. */
export const dbt = connectionKind({
  app: "dbt",
  label: "DBT",
  family: "Data transformation platform",
  origin: { folder: "services/app-connection/dbt/" },
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A dbt Cloud API token (account-scoped): secret. */
        apiToken: str.max(255, { error: "must be at most 255 characters" }),
        /** The dbt Cloud instance's URL, e.g. `https://cloud.getdbt.com`. */
        instanceUrl: z.url({ error: "must be a URL" }).trim(),
        /** The dbt Cloud account's id. */
        accountId: str.max(255, { error: "must be at most 255 characters" }),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-dbt-token", instanceUrl: "https://example.com", accountId: "12345" } },
});
