import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** An Azure GUID, trimmed, any letter case. */
const azureGuid = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: "Invalid GUID format" });

/** The service's `services/app-connection/azure-dns/azure-dns-connection-schema.ts`. */
export const azureDns = connectionKind({
  app: "azure-dns",
  label: "Azure DNS",
  family: "DNS provider",
  origin: { folder: "services/app-connection/azure-dns/" },
  methods: {
    "client-secret": {
      credentials: strictObject({
        /** The Azure tenant (directory) id, a GUID. */
        tenantId: azureGuid,
        /** The app registration's application (client) id, a GUID: secret, never returned by the service. */
        clientId: azureGuid,
        /** A client secret of the app registration, at most 256 characters: secret. */
        clientSecret: str.max(256, { error: "Client secret cannot exceed 256 characters" }),
        /** The Azure subscription holding the DNS zones, a GUID. */
        subscriptionId: azureGuid,
      }),
      secretFields: ["clientSecret", "clientId"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "client-secret": {
      tenantId: "00000000-0000-4000-8000-0000000000b1",
      clientId: "00000000-0000-4000-8000-0000000000b2",
      clientSecret: "emulator-azure-dns-secret",
      subscriptionId: "00000000-0000-4000-8000-0000000000b3",
    },
  },
});
