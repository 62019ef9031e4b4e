import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/zabbix/zabbix-connection-schemas.ts`. */
export const zabbix = connectionKind({
  app: "zabbix",
  label: "Zabbix",
  family: "Monitoring platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Zabbix API token, at most 1000 characters: secret. */
        apiToken: str.max(1000, { error: "must be at most 1000 characters" }),
        /** The Zabbix server's URL. */
        instanceUrl: z.string().trim().url({ error: "must be a URL" }),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-zabbix-token", instanceUrl: "https://example.com/zabbix" } },
});
