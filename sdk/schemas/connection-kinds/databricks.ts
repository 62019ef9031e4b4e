import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/databricks/databricks-connection-schemas.ts`. */
export const databricks = connectionKind({
  app: "databricks",
  label: "Databricks",
  family: "Data platform",
  origin: "service-enum",
  methods: {
    "service-principal": {
      credentials: strictObject({
        /** The service principal's OAuth client id. */
        clientId: str,
        /** The service principal's OAuth client secret: secret. */
        clientSecret: str,
        /** The workspace's URL, e.g. `https://<workspace>.cloud.databricks.com`. */
        workspaceUrl: str.refine((v) => URL.canParse(v), { error: "must be a URL" }),
      }),
      secretFields: ["clientSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "service-principal": {
      clientId: "00000000-0000-4000-8000-0000000000b1",
      clientSecret: "emulator-databricks-client-secret",
      workspaceUrl: "https://example.cloud.databricks.com",
    },
  },
});
