import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The three methods differ only in the kind of token; the credentials are the same. */
const railwayToken = {
  credentials: strictObject({
    /** A Railway API token of the method's kind, at most 255 characters: secret. */
    apiToken: str.max(255, { error: "must be at most 255 characters" }),
  }),
  secretFields: ["apiToken"],
};

/**
 * The service's `services/app-connection/railway/railway-connection-schemas.ts` (the method slugs
 * are in `railway-connection-constants.ts`).
 */
export const railway = connectionKind({
  app: "railway",
  label: "Railway",
  family: "Application platform",
  origin: "service-enum",
  methods: {
    "account-token": railwayToken,
    "project-token": railwayToken,
    "team-token": railwayToken,
  },
  patchSupport: standardPatchSupport,
  examples: {
    "account-token": { apiToken: "emulator-railway-token" },
    "project-token": { apiToken: "emulator-project-token" },
    "team-token": { apiToken: "emulator-team-token" },
  },
});
