import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/camunda/camunda-sync-schemas.ts`. */
export const camunda = destinationRow({
  destination: "camunda",
  label: "Camunda",
  family: "Process orchestration platform",
  origin: "service-enum",
  connectionApp: "camunda",
  destinationConfig: strictObject({
    /** The Camunda secret scope the secrets are written in (e.g. the cluster scope). */
    scope: z.string().trim().min(1, { error: "must not be empty" }),
    /** The Camunda cluster's UUID. */
    clusterUUID: nonEmpty,
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scope: "cluster", clusterUUID: "00000000-0000-4000-8000-0000000000c1" } },
});
