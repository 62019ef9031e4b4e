import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/salesforce/salesforce-connection-schemas.ts`. */
export const salesforce = connectionKind({
  app: "salesforce",
  label: "Salesforce",
  family: "CRM platform",
  origin: { folder: "services/app-connection/salesforce/" },
  methods: {
    "client-credentials": {
      credentials: strictObject({
        /** The Salesforce org's instance URL, e.g. `https://example.my.salesforce.com` (the service does not check it is a URL). */
        instanceUrl: str,
        /** The consumer key of the external client app the service signs in with: secret, never returned by the service. */
        consumerKey: str,
        /** That app's consumer secret: secret. */
        consumerSecret: str,
      }),
      secretFields: ["consumerKey", "consumerSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "client-credentials": {
      instanceUrl: "https://emulator.my.salesforce.com",
      consumerKey: "emulator-salesforce-consumer-key",
      consumerSecret: "emulator-salesforce-consumer-secret",
    },
  },
});
