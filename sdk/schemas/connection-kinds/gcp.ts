import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport } from "./row";

/** The service's `services/app-connection/gcp/gcp-connection-schemas.ts`. */
export const gcp = connectionKind({
  app: "gcp",
  label: "GCP",
  family: "Cloud provider",
  origin: "service-enum",
  methods: {
    "service-account-impersonation": {
      credentials: strictObject({
        /** The email of the service account the service impersonates: secret, never returned by the service. */
        serviceAccountEmail: z.email({ error: "must be an email address" }),
      }),
      secretFields: ["serviceAccountEmail"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "service-account-impersonation": { serviceAccountEmail: "emulator@example-project.iam.gserviceaccount.com" },
  },
});
