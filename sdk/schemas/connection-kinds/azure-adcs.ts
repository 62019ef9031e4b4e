import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/azure-adcs/azure-adcs-connection-schemas.ts`. */
export const azureAdcs = connectionKind({
  app: "azure-adcs",
  label: "Azure ADCS",
  family: "Certificate authority",
  origin: "service-enum",
  methods: {
    "username-password": {
      credentials: strictObject({
        /** The ADCS server's web enrollment URL, `https://` only, at most 255 characters. */
        adcsUrl: str
          .max(255, { error: "must be at most 255 characters" })
          .refine((v) => v.startsWith("https://"), { error: "ADCS URL must use HTTPS" }),
        /** The user the service signs in as, at most 255 characters. */
        username: str.max(255, { error: "must be at most 255 characters" }),
        /** That user's password, at most 255 characters: secret, never returned by the service. */
        password: str.max(255, { error: "must be at most 255 characters" }),
        /** Refuse a server certificate that does not verify. */
        sslRejectUnauthorized: z.boolean().optional(),
        /** PEM certificate of the server's CA, for TLS; `""` for none. */
        sslCertificate: z
          .string()
          .trim()
          .optional()
          .transform((v) => v || undefined),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["cert-manager"],
  examples: {
    "username-password": {
      adcsUrl: "https://adcs.example.com",
      username: "emulator-adcs-user",
      password: "emulator-adcs-password",
      sslRejectUnauthorized: true,
    },
  },
});
