import * as pulumi from "@pulumi/pulumi";
import { getAuditLogsOutput, type GetAuditLogsArgs, type GetAuditLogsResult } from "secretops-pulumi";
import type { AuditLogEntry, EventType } from "secretops-pulumi/sdk";

/**
 * Audit logs: a program that only reads. Each `getAuditLogsOutput` runs an audit-log query on
 * every `pulumi preview` and `pulumi up` (its result is never stored as a resource), with the
 * endpoint and credentials of the same `secretops:*` config as the resources.
 *
 *  - every change to syncs, rotations and certificate profiles made through the API by automation
 *    (this provider, scripts) in the last `lookbackHours`;
 *  - the changes to one destination's syncs of one environment, by event metadata;
 *  - the updates to the organization's app connections, whoever made them.
 *
 * The first two look at one project when `projectId` is set (the project another program made:
 * `pulumi stack output projectId` of examples/secret-sync, say), else at the whole organization.
 * `pulumi stack output summary` shows the result. It targets the local emulator by default: run
 * another example (or the quickstart) against the same emulator first to have something to see.
 * Against your own service:
 *   pulumi config set projectId <id>
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 */
const config = new pulumi.Config();
/** The project to look at; unset, the whole organization (the queries without `projectId`). */
const projectId = config.get("projectId");
/** How far back to look, in hours (the service keeps at most three months per query). */
const lookbackHours = config.getNumber("lookbackHours") ?? 24;
/** `other` is any API client, this provider included; `web` is the console, `cli` the CLI. */
const userAgentType = (config.get("userAgentType") ?? "other") as GetAuditLogsArgs["userAgentType"];
/** Which destination and environment the second query looks at. */
const destination = config.get("destination") ?? "vercel";
const environment = config.get("environment") ?? "prod";

// Whole hours, so that the query (and the summary) only move once an hour, not on every run.
const hour = 60 * 60 * 1000;
const startDate = new Date(Math.floor(Date.now() / hour) * hour - lookbackHours * hour).toISOString();

const changeEvents: EventType[] = [
  "create-secret-sync",
  "update-secret-sync",
  "delete-secret-sync",
  "create-secret-rotation",
  "update-secret-rotation",
  "delete-secret-rotation",
  "create-certificate-profile",
  "update-certificate-profile",
  "delete-certificate-profile",
];

// 1. Automated changes, newest first, at most 500.
const changes = getAuditLogsOutput({ projectId, eventType: changeEvents, userAgentType, startDate, maxEntries: 500 });

// 2. Changes to the syncs that push `environment` to `destination`: every `key=value` pair of
//    `eventMetadata` must match the event's metadata.
const destinationChanges = getAuditLogsOutput({
  projectId,
  eventType: ["create-secret-sync", "update-secret-sync", "delete-secret-sync"],
  eventMetadata: `destination=${destination},environment=${environment}`,
  startDate,
  maxEntries: 50,
});

// 3. Org-level connections belong to no project: no projectId, so the whole organization.
//    The event type can also be given as a comma-separated string.
const connectionUpdates = getAuditLogsOutput({ eventType: "update-app-connection", startDate, maxEntries: 50 });

const countBy = (entries: AuditLogEntry[], key: (e: AuditLogEntry) => string) =>
  entries.reduce<Record<string, number>>((acc, e) => ({ ...acc, [key(e)]: (acc[key(e)] ?? 0) + 1 }), {});
const actorName = (e: AuditLogEntry) => String(e.actor.metadata.name ?? e.actor.metadata.email ?? e.actor.type);
/** `<time> <event type> <name>`: syncs, rotations and connections have a `name`, profiles a `slug`. */
const line = (e: AuditLogEntry) =>
  `${e.createdAt} ${e.event.type} ${String(e.event.metadata.name ?? e.event.metadata.slug ?? "")}`.trim();
const describe = (r: GetAuditLogsResult) => ({ count: r.entries.length, truncated: r.truncated });

export const summary = pulumi.all([changes, destinationChanges, connectionUpdates]).apply(([c, d, u]) => ({
  since: startDate,
  scope: projectId ? `project ${projectId}` : "organization",
  changes: {
    ...describe(c),
    byEventType: countBy(c.entries, (e) => e.event.type),
    byActor: countBy(c.entries, actorName),
    latest: c.entries.slice(0, 5).map(line),
  },
  [`${destination}-${environment}-syncs`]: { ...describe(d), events: d.entries.map(line) },
  connectionUpdates: {
    ...describe(u),
    events: u.entries.map((e) => {
      const fields = (e.event.metadata.updatedFields as string[] | undefined) ?? [];
      return `${e.createdAt} ${String(e.event.metadata.app)}/${String(e.event.metadata.name)}: ${fields.join(", ")}`;
    }),
  },
}));
