import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/dns-made-easy/dns-made-easy-connection-schema.ts`. */
export const dnsMadeEasy = connectionKind({
  app: "dns-made-easy",
  label: "DNS Made Easy",
  family: "DNS provider",
  origin: "service-enum",
  methods: {
    "api-key-secret": {
      credentials: strictObject({
        /** The DNS Made Easy API key, at most 256 characters. */
        apiKey: str.max(256, { error: "must be at most 256 characters" }),
        /** The API key's secret key, at most 256 characters: secret. */
        secretKey: str.max(256, { error: "must be at most 256 characters" }),
      }),
      secretFields: ["secretKey"],
    },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["cert-manager"],
  examples: { "api-key-secret": { apiKey: "emulator-dnsme-api-key", secretKey: "emulator-dnsme-secret-key" } },
});
