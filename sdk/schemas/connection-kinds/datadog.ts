import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The Datadog site's API URL, e.g. `https://api.datadoghq.com`: at most 255 characters. */
const datadogUrl = z
  .url({ error: "must be a URL" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(255, { error: "must be at most 255 characters" });

/** The service's `services/app-connection/datadog/datadog-connection-schemas.ts`. */
export const datadog = connectionKind({
  app: "datadog",
  label: "Datadog",
  family: "Monitoring platform",
  origin: { folder: "services/app-connection/datadog/" },
  methods: {
    token: {
      credentials: strictObject({
        /** The Datadog site's API URL, e.g. `https://api.datadoghq.com`. */
        url: datadogUrl,
        /** A Datadog service access token: secret. */
        token: str,
      }),
      secretFields: ["token"],
    },
    "application-key": {
      credentials: strictObject({
        /** The Datadog site's API URL, e.g. `https://api.datadoghq.com`. */
        url: datadogUrl,
        /** A Datadog API key: secret. */
        apiKey: str,
        /** A Datadog application key: secret. */
        applicationKey: str,
      }),
      secretFields: ["apiKey", "applicationKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "application-key": {
      url: "https://example.com",
      apiKey: "emulator-datadog-api-key",
      applicationKey: "emulator-datadog-app-key",
    },
    token: { url: "https://api.datadoghq.com", token: "emulator-datadog-token" },
  },
});
