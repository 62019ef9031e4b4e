import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/devin/devin-connection-schemas.ts`. */
export const devin = connectionKind({
  app: "devin",
  label: "Devin",
  family: "AI coding agent",
  origin: { folder: "services/app-connection/devin/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A Devin API key, starting with `cog_`, at most 1000 characters: secret. */
        apiKey: str
          .max(1000, { error: "must be at most 1000 characters" })
          .startsWith("cog_", { error: "must start with 'cog_'" }),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "cog_emulator-devin-key" } },
});
