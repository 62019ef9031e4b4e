import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/cloudflare/cloudflare-connection-schema.ts`. */
export const cloudflare = connectionKind({
  app: "cloudflare",
  label: "Cloudflare",
  family: "Edge platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** The Cloudflare account's id: letters, digits, underscores and hyphens, at most 256 characters. */
        accountId: str
          .max(256, { error: "must be at most 256 characters" })
          .regex(/^[a-zA-Z0-9_-]+$/, { error: "may only contain letters, digits, underscores and hyphens" }),
        /** A Cloudflare API token, at most 256 characters: secret. */
        apiToken: str.max(256, { error: "must be at most 256 characters" }),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["cert-manager"],
  examples: { "api-token": { accountId: "emulator-cloudflare-account", apiToken: "emulator-cloudflare-token" } },
});
