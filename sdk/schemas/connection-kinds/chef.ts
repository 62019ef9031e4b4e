import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `ee/services/app-connections/chef/chef-connection-schemas.ts`. */
export const chef = connectionKind({
  app: "chef",
  label: "Chef",
  family: "Configuration management server",
  origin: "service-enum",
  methods: {
    "user-key": {
      credentials: strictObject({
        /** The Chef Infra Server's URL (optional). */
        serverUrl: z
          .string()
          .trim()
          .pipe(z.url({ error: "must be a URL" }))
          .optional(),
        /** The Chef organization's name. */
        orgName: str.max(256, { error: "must be at most 256 characters" }),
        /** The Chef user the key belongs to. */
        userName: str.max(256, { error: "must be at most 256 characters" }),
        /** The user's PEM private key: secret. */
        privateKey: str.max(16384, { error: "must be at most 16384 characters" }),
      }),
      secretFields: ["privateKey"],
    },
  },
  patchSupport: standardPatchSupport,
  enterprise: true,
  listedForProjectTypes: ["cert-manager"],
  examples: {
    "user-key": {
      serverUrl: "https://chef.example.com",
      orgName: "emulator-org",
      userName: "emulator-user",
      privateKey: "-----BEGIN RSA PRIVATE KEY-----\nemulator\n-----END RSA PRIVATE KEY-----",
    },
  },
});
