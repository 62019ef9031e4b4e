import { strictObject, uuid } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/microsoft-intune/microsoft-intune-connection-schemas.ts`. */
export const microsoftIntune = connectionKind({
  app: "microsoft-intune",
  label: "Microsoft Intune",
  family: "Device management platform",
  origin: { folder: "services/app-connection/microsoft-intune/" },
  methods: {
    "client-secret": {
      credentials: strictObject({
        /** The Entra ID tenant's id (a UUID). */
        tenantId: uuid,
        /** The app registration's application (client) id (a UUID). */
        clientId: uuid,
        /** A client secret of that app registration: secret. */
        clientSecret: str,
      }),
      secretFields: ["clientSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "client-secret": {
      tenantId: "00000000-0000-4000-8000-0000000000c1",
      clientId: "00000000-0000-4000-8000-0000000000c2",
      clientSecret: "emulator-intune-secret",
    },
  },
});
