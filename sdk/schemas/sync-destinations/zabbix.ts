import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const hostField = z.string().trim().min(1, { error: "must not be empty" }).max(255, {
  error: "must be at most 255 characters",
});

/**
 * The service's `services/secret-sync/zabbix/zabbix-sync-schemas.ts`. The service's config is a
 * union on `scope`: `host` needs `hostId` and `hostName`; `global` has neither (the service drops
 * them if sent, so they are accepted there).
 */
export const zabbix = destinationRow({
  destination: "zabbix",
  label: "Zabbix",
  family: "Monitoring platform",
  origin: "service-enum",
  connectionApp: "zabbix",
  destinationConfig: strictObject({
    /** `global` (global macros) or `host` (the macros of one host). */
    scope: z.enum(["global", "host"]),
    /** The host's id; required with `scope: "host"`. */
    hostId: hostField.optional(),
    /** The host's name: a label, not part of where the secrets land; required with `scope: "host"`. */
    hostName: hostField.optional(),
    /** The macro type the secrets are written as: 0 (text) or 1 (secret text); any number from 0 to 1 passes. */
    macroType: z.number().min(0, { error: "must be 0 or 1" }).max(1, { error: "must be 0 or 1" }),
  }).superRefine((c, ctx) => {
    if (c.scope !== "host") return;
    for (const field of ["hostId", "hostName"] as const) {
      if (c[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: 'required with scope "host"' });
    }
  }),
  extraSyncOptions: {},
  canImport: true,
  // The service's SECRET_SYNC_SKIP_FIELDS_MAP (services/secret-sync/secret-sync-maps.ts).
  duplicateCheckIgnores: ["hostName", "macroType"],
  example: { destinationConfig: { scope: "host", hostId: "10084", hostName: "web-1", macroType: 0 } },
});
