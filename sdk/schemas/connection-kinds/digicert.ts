import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/digicert/digicert-connection-schemas.ts` (regions in `digicert-connection-enums.ts`). */
export const digicert = connectionKind({
  app: "digicert",
  label: "DigiCert",
  family: "Certificate authority",
  origin: { folder: "services/app-connection/digicert/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A DigiCert CertCentral API key: secret. */
        apiKey: str,
        /** The CertCentral region of the account: `us` or `eu`. */
        region: z.enum(["us", "eu"]),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-digicert-key", region: "us" } },
});
