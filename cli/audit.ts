import { Command, InvalidArgumentError, Option } from "commander";
import {
  type AuditLogEntry,
  type AuditLogQuery,
  AuditLogFiltersSchema,
  MAX_AUDIT_LOG_PAGE,
  actorTypes,
  issuesFromZod,
  userAgentTypes,
} from "../sdk/schemas";
import { SecretOpsApiError, SecretOpsValidationError } from "../sdk/errors";
import {
  type ConnectionOptions,
  Failure,
  type StackOptions,
  UsageError,
  addConnectionOptions,
  clientFromOptions,
  counted,
  parseTime,
  stackConfig,
} from "./common";

interface AuditOptions extends ConnectionOptions, StackOptions {
  project?: string;
  environment?: string;
  eventType?: string[];
  actorType?: string;
  actor?: string;
  userAgentType?: string;
  secretPath?: string;
  secretKey?: string;
  metadata?: string[];
  since?: string;
  until?: string;
  limit?: number;
  format?: "table" | "json" | "ndjson";
}

/** The flag of each filter, so the SDK's words about a field name the flag the user typed. */
export const flagOf: Record<string, string> = {
  projectId: "--project",
  environment: "--environment",
  eventType: "--event-type",
  actorType: "--actor-type",
  actor: "--actor",
  userAgentType: "--user-agent-type",
  secretPath: "--secret-path",
  secretKey: "--secret-key",
  eventMetadata: "--metadata",
  startDate: "--since",
  endDate: "--until",
  limit: "--limit",
};

const collect = (v: string, acc: string[] | undefined) => [...(acc ?? []), v];
function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a whole number of at least 1");
  return n;
}

export function auditCommand(): Command {
  return addConnectionOptions(
    new Command("audit")
      .description("Query the audit log with every filter the service has; streams all pages, newest first")
      .option("--stack <name>", "read secretops:* config from this stack (default: the selected stack)")
      .option("-C, --cwd <dir>", "the Pulumi project's directory, for its stack config (default: here)")
      .option("--pulumi <path>", "the pulumi CLI to run (default: pulumi on PATH)")
      .option("--project <id>", "project id")
      .option("--environment <slug>", "environment slug (needs --project)")
      .option("--event-type <type>", "event type, e.g. update-secret-sync (repeatable)", collect)
      .addOption(new Option("--actor-type <type>", "actor type").choices(actorTypes))
      .option("--actor <id>", "actor id (the user's, identity's or service's id)")
      .addOption(new Option("--user-agent-type <type>", "user agent type").choices(userAgentTypes))
      .option("--secret-path <path>", "secret path, e.g. /app (needs --project)")
      .option("--secret-key <key>", "secret key (needs --project)")
      .option("--metadata <key=value>", "event metadata that must match (repeatable; all must match)", collect)
      .option(
        "--since <when>",
        "from: 30m, 1h, 7d back from now, or an ISO 8601 date-time (default: the last UTC midnight)",
      )
      .option("--until <when>", "to: like --since (default: now)")
      .option("--limit <n>", "stop after n entries (default: all)", positiveInt)
      .addOption(
        new Option(
          "--format <format>",
          "table (default on a terminal), json (one array), ndjson (one entry a line; default when piped)",
        ).choices(["table", "json", "ndjson"]),
      ),
  )
    .addHelpText(
      "after",
      `
Endpoint and token: --api-url/--token-env, else the stack's secretops:* config when run in a Pulumi
project (as the resources read it), else the environment.
Exit codes: 0 success, 1 the service failed or refused the credentials, 2 a bad flag or filter.
Progress goes to stderr, and only when stderr is a terminal.`,
    )
    .action(async (o: AuditOptions) => {
      const filters = auditFilters(o);
      const client = clientFromOptions(o, await stackConfig(o));
      const format = o.format ?? (process.stdout.isTTY ? "table" : "ndjson");
      const out = (s: string) => process.stdout.write(s);
      const progress = process.stderr.isTTY
        ? (n: number) => process.stderr.write(`\rfetched ${counted(n, "entry", "entries")}…`)
        : undefined;
      const writer = writers[format](out);
      let n = 0;
      try {
        for await (const entry of client.auditLogs.iterate(filters)) {
          writer.entry(entry, n);
          n += 1;
          if (progress && n % 100 === 0) progress(n);
          if (o.limit !== undefined && n >= o.limit) break;
        }
      } catch (e) {
        if (progress) process.stderr.write("\r\x1b[K");
        throw apiFailure(e);
      }
      if (progress) process.stderr.write("\r\x1b[K");
      writer.end(n);
    });
}

/** The SDK's filters from the flags, checked by the SDK's own schema. */
export function auditFilters(o: AuditOptions): AuditLogQuery {
  const metadata = o.metadata ?? [];
  for (const kv of metadata) {
    const i = kv.indexOf("=");
    if (i <= 0 || i === kv.length - 1) throw new UsageError(`--metadata: expected key=value, got "${kv}"`);
    if (kv.includes(",")) throw new UsageError(`--metadata: a key or value cannot contain ",": "${kv}"`);
  }
  const filters: AuditLogQuery = {
    ...(o.project !== undefined && { projectId: o.project }),
    ...(o.environment !== undefined && { environment: o.environment }),
    ...(o.eventType && { eventType: o.eventType }),
    ...(o.actorType !== undefined && { actorType: o.actorType as AuditLogQuery["actorType"] }),
    ...(o.actor !== undefined && { actor: o.actor }),
    ...(o.userAgentType !== undefined && { userAgentType: o.userAgentType as AuditLogQuery["userAgentType"] }),
    ...(o.secretPath !== undefined && { secretPath: o.secretPath }),
    ...(o.secretKey !== undefined && { secretKey: o.secretKey }),
    ...(metadata.length > 0 && { eventMetadata: metadata.join(",") }),
    ...(o.since !== undefined && { startDate: parseTime("--since", o.since) }),
    ...(o.until !== undefined && { endDate: parseTime("--until", o.until) }),
    limit: Math.min(o.limit ?? MAX_AUDIT_LOG_PAGE, MAX_AUDIT_LOG_PAGE),
  };
  const parsed = AuditLogFiltersSchema.safeParse(filters);
  if (!parsed.success) throw new UsageError(issuesFromZod(parsed.error.issues).map(flagIssue).join("\n"));
  return filters;
}

/** `--environment: requires projectId (--project)`: the SDK's rule, named by the flag. */
function flagIssue(i: { path: string; message: string }): string {
  const field = i.path.split(".")[0] ?? "";
  const message = i.message.replace(/\b(projectId|startDate|endDate)\b/g, (f) => `${f} (${flagOf[f]})`);
  return `${flagOf[field] ?? field}: ${message}`;
}

/** An SDK error as the command's failure: a refused filter is bad usage (2), the rest a failure (1). */
export function apiFailure(e: unknown): Error {
  if (e instanceof SecretOpsValidationError) return new UsageError(e.issues.map(flagIssue).join("\n"));
  if (e instanceof SecretOpsApiError) {
    if (e.status === 422 && e.issues?.length) {
      return new UsageError(`the service refused the filters:\n${e.issues.map(flagIssue).join("\n")}`);
    }
    return new Failure(`${e.method} ${e.path} failed with ${e.status} ${e.error}: ${e.message}`);
  }
  return new Failure((e as Error).message ?? String(e));
}

interface Writer {
  entry(e: AuditLogEntry, index: number): void;
  end(count: number): void;
}

const pad = (s: string, n: number) => (s.length >= n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
const metadataText = (m: Record<string, unknown>) =>
  Object.entries(m)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== "object")
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(" ");

const writers: Record<"table" | "json" | "ndjson", (out: (s: string) => void) => Writer> = {
  // Rows stream as they come: fixed column widths instead of widths measured over every row.
  table: (out) => ({
    entry(e, i) {
      if (i === 0) out(`${pad("TIME", 25)}${pad("EVENT", 32)}${pad("ACTOR", 28)}${pad("PROJECT", 20)}METADATA\n`);
      const actor = `${e.actor.type}:${String(e.actor.metadata.name ?? e.actor.metadata.identityId ?? e.actor.metadata.userId ?? "")}`;
      const metadata = metadataText(e.event.metadata);
      out(
        `${pad(e.createdAt, 25)}${pad(e.event.type, 32)}${pad(actor, 28)}${pad(e.projectName ?? e.projectId ?? "-", 20)}${metadata.length > 100 ? `${metadata.slice(0, 99)}…` : metadata}\n`,
      );
    },
    end(n) {
      out(n === 0 ? "no matching audit entries\n" : `${counted(n, "entry", "entries")}\n`);
    },
  }),
  json: (out) => ({
    entry(e, i) {
      out(`${i === 0 ? "[\n" : ",\n"}${JSON.stringify(e)}`);
    },
    end(n) {
      out(n === 0 ? "[]\n" : "\n]\n");
    },
  }),
  ndjson: (out) => ({
    entry(e) {
      out(`${JSON.stringify(e)}\n`);
    },
    end() {},
  }),
};
