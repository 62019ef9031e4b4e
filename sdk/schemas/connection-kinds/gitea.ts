import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The Gitea instance's URL (trimmed). */
const instanceUrl = z
  .string()
  .trim()
  .pipe(z.url({ error: "must be a URL" }));

/**
 * The service's `services/app-connection/gitea/gitea-connection-schemas.ts`, in its version with
 * both methods (commit c592d3d4; the methods as `docs/integrations/app-connections/gitea.mdx`
 * describes them). Its `oauth` credentials are a union: the sign-in's `code`, or the stored token
 * set, which has a `Date` field that JSON cannot carry; only the first is typed here. The service
 * returns `instanceUrl` of either method.
 */
export const gitea = connectionKind({
  app: "gitea",
  label: "Gitea",
  family: "Source-hosting service",
  origin: { folder: "services/app-connection/gitea/" },
  methods: {
    "personal-access-token": {
      credentials: strictObject({
        /** A Gitea personal access token: secret. */
        personalAccessToken: str,
        /** The Gitea instance's URL, e.g. `https://gitea.example.com`. */
        instanceUrl,
      }),
      secretFields: ["personalAccessToken"],
    },
    oauth: {
      credentials: strictObject({
        /** The authorization code of the OAuth sign-in (self-hosted Infisical only), which the service exchanges: secret. */
        code: str,
        /** The Gitea instance's URL, e.g. `https://gitea.example.com`. */
        instanceUrl,
      }),
      secretFields: ["code"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "personal-access-token": { personalAccessToken: "emulator-gitea-token", instanceUrl: "https://gitea.example.com" },
    oauth: { code: "emulator-gitea-code", instanceUrl: "https://gitea.example.com" },
  },
});
