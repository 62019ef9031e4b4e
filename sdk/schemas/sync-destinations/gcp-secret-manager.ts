import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `GCPSecretManagerLocation` (`services/secret-sync/gcp/gcp-sync-enums.ts`). */
const gcpLocation = z.enum([
  "asia-southeast3",
  "asia-south2",
  "asia-east2",
  "asia-southeast2",
  "australia-southeast2",
  "asia-south1",
  "asia-northeast2",
  "asia-northeast3",
  "asia-southeast1",
  "australia-southeast1",
  "asia-east1",
  "asia-northeast1",
  "europe-west1",
  "europe-west10",
  "europe-north1",
  "europe-north2",
  "europe-west3",
  "europe-west2",
  "europe-southwest1",
  "europe-west8",
  "europe-west4",
  "europe-west12",
  "europe-west9",
  "europe-central2",
  "europe-west6",
  "us-central1",
  "us-west4",
  "us-west2",
  "northamerica-south1",
  "northamerica-northeast1",
  "us-east4",
  "us-central2",
  "us-west1",
  "us-west3",
  "us-east1",
  "northamerica-northeast2",
  "us-east5",
  "us-south1",
  "us-west8",
  "southamerica-east1",
  "southamerica-west1",
  "me-central2",
  "me-central1",
  "me-west1",
  "africa-south1",
]);

/**
 * The service's `services/secret-sync/gcp/gcp-sync-schemas.ts`. Its `destinationConfig` is a union
 * on `scope` (only `region` has `locationId`), modelled as one object and the rule below.
 */
export const gcpSecretManager = destinationRow({
  destination: "gcp-secret-manager",
  label: "GCP Secret Manager",
  family: "Cloud secret manager",
  origin: "service-enum",
  connectionApp: "gcp",
  destinationConfig: strictObject({
    /** `global`: secrets replicated automatically; `region`: secrets stored in one location, `locationId`. */
    scope: z.enum(["global", "region"]),
    /** The GCP project's id. */
    projectId: z.string().min(1, { error: "must not be empty" }),
    /** With `region` (and only then, required): the location the secrets are stored in, e.g. `us-central1`. */
    locationId: gcpLocation.optional(),
  }).superRefine((c, ctx) => {
    if (c.scope === "region" && c.locationId === undefined)
      ctx.addIssue({ code: "custom", message: 'is required with scope "region"', path: ["locationId"] });
    if (c.scope === "global" && c.locationId !== undefined)
      ctx.addIssue({ code: "custom", message: 'is only for scope "region"', path: ["locationId"] });
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scope: "global", projectId: "emulator-project" } },
});
