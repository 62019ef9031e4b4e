import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/**
 * The service's `services/app-connection/supabase/supabase-connection-schemas.ts`. The service
 * returns none of the credentials, not even `instanceUrl`, so both are secret here.
 */
export const supabase = connectionKind({
  app: "supabase",
  label: "Supabase",
  family: "Backend platform",
  origin: "service-enum",
  methods: {
    "account-token": {
      credentials: strictObject({
        /** A Supabase access token, at most 255 characters: secret. */
        apiKey: str.max(255, { error: "must be at most 255 characters" }),
        /** The Supabase API's URL (no URL check), at most 255 characters; never returned by the service: secret. */
        instanceUrl: str.max(255, { error: "must be at most 255 characters" }),
      }),
      secretFields: ["apiKey", "instanceUrl"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "account-token": { apiKey: "emulator-supabase-token", instanceUrl: "https://example.com" } },
});
