import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/okta/okta-connection-schemas.ts`. */
export const okta = connectionKind({
  app: "okta",
  label: "Okta",
  family: "Identity platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** The Okta organization's URL, e.g. `https://example.okta.com`, at most 255 characters. */
        instanceUrl: z
          .string()
          .trim()
          .pipe(z.url({ error: "Invalid Instance URL" }).max(255, { error: "must be at most 255 characters" })),
        /** An Okta API token: `00` followed by exactly 40 letters, digits, `_` or `-`: secret. */
        apiToken: str.regex(/^00[a-zA-Z0-9_-]{40}$/, { error: "Invalid Okta API Token format" }),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "api-token": { instanceUrl: "https://example.okta.com", apiToken: "00emulator-okta-token-00000000000000000000" },
  },
  invalidExamples: [
    {
      credentials: { instanceUrl: "https://example.okta.com", apiToken: "00emulator-okta-token-000000000000000000000" },
      path: "credentials.apiToken",
      message: "Invalid Okta API Token format",
    },
    {
      credentials: { instanceUrl: "https://example.okta.com", apiToken: "01emulator-okta-token-00000000000000000000" },
      path: "credentials.apiToken",
      message: "Invalid Okta API Token format",
    },
    {
      credentials: { instanceUrl: "example.okta.com", apiToken: "00emulator-okta-token-00000000000000000000" },
      path: "credentials.instanceUrl",
      message: "Invalid Instance URL",
    },
  ],
});
