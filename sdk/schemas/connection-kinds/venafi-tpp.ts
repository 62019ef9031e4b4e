import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/venafi-tpp/venafi-tpp-connection-schemas.ts` (Trust Protection Platform, on premises). */
export const venafiTpp = connectionKind({
  app: "venafi-tpp",
  label: "Venafi TPP",
  family: "Certificate manager",
  origin: { folder: "services/app-connection/venafi-tpp/" },
  methods: {
    oauth: {
      credentials: strictObject({
        /** The TPP server's URL, `https://` only, at most 512 characters. */
        tppUrl: strMax(512).refine((v) => v.startsWith("https://"), { error: "TPP URL must use HTTPS" }),
        /** The id of the API integration the service signs in through, at most 255 characters. */
        clientId: strMax(255),
        /** The TPP user the service signs in as, at most 255 characters. */
        username: strMax(255),
        /** That user's password, at most 255 characters: secret, never returned by the service. */
        password: strMax(255),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    oauth: {
      tppUrl: "https://tpp.example.com",
      clientId: "infisical-integration",
      username: "emulator-tpp-user",
      password: "emulator-tpp-password",
    },
  },
});
