import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/spacelift/spacelift-connection-schemas.ts`. */
export const spacelift = connectionKind({
  app: "spacelift",
  label: "Spacelift",
  family: "Infrastructure-as-code platform",
  origin: { folder: "services/app-connection/spacelift/" },
  methods: {
    "api-key-secret": {
      credentials: strictObject({
        /** The Spacelift account's API URL, e.g. `https://example.app.spacelift.io`, at most 256 characters. */
        apiUrl: strMax(256).pipe(z.url({ error: "API URL must be a valid URL" })),
        /** The Spacelift API key's id, at most 256 characters. */
        apiKeyId: strMax(256),
        /** The API key's secret, at most 256 characters: secret. */
        apiKeySecret: strMax(256),
      }),
      secretFields: ["apiKeySecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "api-key-secret": {
      apiUrl: "https://emulator.app.spacelift.io",
      apiKeyId: "01EMULATORSPACELIFTKEY",
      apiKeySecret: "emulator-spacelift-secret",
    },
  },
});
