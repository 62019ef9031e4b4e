import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/venafi/venafi-connection-schemas.ts`. */
export const venafi = connectionKind({
  app: "venafi",
  label: "Venafi TLS Protect Cloud",
  family: "Certificate cloud",
  origin: { folder: "services/app-connection/venafi/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A Venafi TLS Protect Cloud API key: secret. */
        apiKey: strMax(256),
        /** The region of the Venafi TLS Protect Cloud tenant. */
        region: z.enum(["us", "eu", "au", "uk", "sg", "ca"]),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-venafi-key", region: "us" } },
});
