import * as pulumi from "@pulumi/pulumi";
import type { AuditLogEntry, AuditLogQuery } from "../sdk/schemas";
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

export async function getAuditLogs(args: GetAuditLogsArgs = {}): Promise<GetAuditLogsResult> {
  refusePlainCredentialConfig();
  const { maxEntries = 1000, ...filters } = args;
  const client = clientFrom(programConfig);
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
  return pulumi.output(args).apply((a) => getAuditLogs(a as GetAuditLogsArgs));
}
