import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type AuditLogEntry,
  type AuditLogQuery,
  AuditLogFiltersSchema,
  type Issue,
  formatIssueList,
  issuesFromZod,
} from "../sdk/schemas";
import type { SecretOpsClient } from "../sdk";
import { clientFrom } from "./config";
import { refusePlainCredentialConfig } from "./program-side";

/**
 * `getAuditLogs`: an audit-log query for programs, like a data source. It runs in the program
 * (never in state), reads its endpoint and credentials from the same `secretops:*` config, and
 * pages through the SDK, one page of up to 1000 entries in memory at a time.
 */

export interface GetAuditLogsArgs extends Omit<AuditLogQuery, "offset" | "limit"> {
  /** Stop after this many entries, newest first. Default 1000. */
  maxEntries?: number;
}

export interface GetAuditLogsResult {
  entries: AuditLogEntry[];
  /** True when `maxEntries` cut the result short. */
  truncated: boolean;
}

// The program's config is plaintext in the runtime; getConfig avoids the secret-read warning
// without exposing the value anywhere but the client.
const programConfig = { get: (key: string) => pulumi.runtime.getConfig(key) };

const maxEntriesRule = z.number().int().min(1, { error: "must be at least 1" }).optional();

/**
 * The query's problems, in the words of a resource arg's (`path: rule`): a filter the query does
 * not have (a typo would otherwise be dropped, and the query answer more than was asked), and
 * every filter rule the SDK checks before sending.
 */
export function queryIssues(args: { maxEntries?: unknown }): Issue[] {
  const { maxEntries, ...filters } = args;
  const known = Object.keys(AuditLogFiltersSchema.shape);
  const issues: Issue[] = Object.keys(filters)
    .filter((k) => !known.includes(k))
    .map((k) => ({ path: k, message: `is not a filter of getAuditLogs (filters: ${known.join(", ")}, maxEntries)` }));
  const max = maxEntriesRule.safeParse(maxEntries);
  if (!max.success) issues.push(...issuesFromZod(max.error.issues).map((i) => ({ ...i, path: "maxEntries" })));
  const parsed = AuditLogFiltersSchema.safeParse(filters);
  if (!parsed.success) issues.push(...issuesFromZod(parsed.error.issues));
  return issues;
}

/** A RunError stops the program with its message alone, as a bad resource arg does: no stack. */
function refuseBadQuery(args: { maxEntries?: unknown }): void {
  const issues = queryIssues(args);
  if (issues.length) throw new pulumi.RunError(`getAuditLogs has a problem: ${formatIssueList(issues)}`);
}

export async function getAuditLogs(args: GetAuditLogsArgs = {}): Promise<GetAuditLogsResult> {
  refusePlainCredentialConfig();
  refuseBadQuery(args);
  return queryAuditLogs(clientFrom(programConfig), args);
}

/** The query through a client, newest first, up to `maxEntries` (default 1000); the program's and the native provider's. */
export async function queryAuditLogs(client: SecretOpsClient, args: GetAuditLogsArgs): Promise<GetAuditLogsResult> {
  const { maxEntries = 1000, ...filters } = args;
  const entries: AuditLogEntry[] = [];
  for await (const entry of client.auditLogs.iterate(filters)) {
    if (entries.length === maxEntries) return { entries, truncated: true };
    entries.push(entry);
  }
  return { entries, truncated: false };
}

/** `getAuditLogs` taking Inputs and returning an Output: it runs once its inputs are known. */
export function getAuditLogsOutput(
  args: { [K in keyof GetAuditLogsArgs]: pulumi.Input<GetAuditLogsArgs[K]> } = {},
): pulumi.Output<GetAuditLogsResult> {
  // A query of plain values is judged at once, where the program calls it, so it fails the program
  // there; one holding outputs is judged once they are known.
  const plain = Object.values(args).every((v) => !pulumi.Output.isInstance(v) && !(v instanceof Promise));
  if (plain) refuseBadQuery(args);
  // `pulumi.output` unwraps each Input to its value: the plain query.
  return pulumi.output(args).apply((a) => getAuditLogs(a));
}
