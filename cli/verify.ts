import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Command } from "commander";
import type { ResourceType } from "../provider/definition";
import { type AuditLogEntry, identityAuthMethodSlugs } from "../sdk/schemas";
import { apiFailure } from "./audit";
import { changedAtIn } from "../provider/state";
import { TYPE_PREFIX } from "./check";
import {
  type ConnectionOptions,
  Failure,
  UsageError,
  addConnectionOptions,
  type StackOptions,
  clientFromOptions,
  counted,
  parseTime,
  projectDir,
  stackConfig,
} from "./common";

/**
 * The events that mean a family's object was written, and the event-metadata key holding its id
 * (as the service's audit events carry them; emulator/routes/*.ts records the same).
 * AppConnectionSettings never creates: it PATCHes an existing connection, and only when a setting
 * differs. A resource adopted as found (provider/state.ts, `adoptedAsFound`) was never written by
 * the stack: no event is looked for. `idOutput`: the output holding the id the event carries, where
 * it is not the resource's id. `unaudited`: the service's routes for the family record no event.
 */
export const appliedEvents: Record<
  ResourceType,
  { types: string[]; idKey: string; byProject?: true; idOutput?: string; unaudited?: true }
> = {
  SecretSync: { types: ["create-secret-sync", "update-secret-sync"], idKey: "syncId" },
  SecretRotation: { types: ["create-secret-rotation", "update-secret-rotation"], idKey: "rotationId" },
  CertificateProfile: {
    types: ["create-certificate-profile", "update-certificate-profile"],
    idKey: "certificateProfileId",
  },
  AppConnection: { types: ["create-app-connection", "update-app-connection"], idKey: "connectionId" },
  AppConnectionSettings: { types: ["create-app-connection", "update-app-connection"], idKey: "connectionId" },
  Project: { types: ["create-project", "update-project"], idKey: "projectId" },
  // The environment events carry its name and slug, no id; one the project's template made was
  // written by the project's create: any of these events of its project counts.
  ProjectEnvironment: {
    types: ["create-environment", "update-environment", "create-project"],
    idKey: "projectId",
    byProject: true,
  },
  SecretFolder: { types: ["create-folder", "update-folder"], idKey: "folderId" },
  Secret: { types: ["create-secret", "update-secret"], idKey: "secretId" },
  CertificateAuthority: {
    types: ["create-certificate-authority", "update-certificate-authority", "import-certificate-authority-cert"],
    idKey: "caId",
  },
  CertificatePolicy: {
    types: ["create-certificate-policy", "update-certificate-policy"],
    idKey: "certificatePolicyId",
  },
  // As the service's EventType names them (`add-identity-<method>`, `update-identity-<method>`): a
  // login method's events carry its identity's id, which is the method's id here; a client
  // secret's carry `clientSecretId`.
  MachineIdentity: { types: ["create-identity", "update-identity"], idKey: "identityId" },
  IdentityAuth: {
    types: identityAuthMethodSlugs.flatMap((m) => [`add-identity-${m}`, `update-identity-${m}`]),
    idKey: "identityId",
  },
  IdentityClientSecret: { types: ["create-identity-universal-auth-client-secret"], idKey: "clientSecretId" },
  ProjectRole: { types: ["create-project-role", "update-project-role"], idKey: "roleId" },
  // The `/projects/:projectId/identity-memberships` routes the SDK calls (the service's
  // deprecated identity membership router, still served; docs/service-api.md §19) record no audit
  // event: nothing to look for, and counted apart.
  ProjectIdentityMembership: { types: [], idKey: "identityId", unaudited: true },
};

interface VerifyOptions extends ConnectionOptions, StackOptions {
  margin: string;
}

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  created?: string;
  modified?: string;
  delete?: boolean;
  outputs?: { changedAt?: unknown; adoptedAsFound?: unknown; projectId?: unknown; [output: string]: unknown };
}

export function verifyCommand(): Command {
  return addConnectionOptions(
    new Command("verify")
      .description(
        "Check that the audit log holds a create or update event for every secretops resource the stack wrote " +
          "(its state, from `pulumi stack export`), at or after the time it last wrote it. Exit 1 naming each one missing.",
      )
      .option("--stack <name>", "the stack (default: the selected stack)")
      .option("-C, --cwd <dir>", "run pulumi in this directory (the project's)")
      .option("--pulumi <path>", "the pulumi CLI to run (default: pulumi on PATH)")
      .option(
        "--margin <duration>",
        "how long before a resource's recorded change its event may be (sync jobs, clock skew), e.g. 15m",
        "15m",
      ),
  )
    .addHelpText(
      "after",
      `
Each resource's event must be no older than the time its object last reached the declared state
(changedAt in its outputs, or updatedAt where changedAt is left out as the same: a change of
provider options alone, which sends nothing, does not move it; state from older releases without
either: the resource's "modified", else "created" time) minus --margin.
Events are matched by id: syncId, rotationId, certificateProfileId, connectionId, projectId,
folderId, secretId, caId, certificatePolicyId in the event's metadata; an environment's events
carry no id, so any environment event (or the create) of its project counts. A resource whose
object the stack adopted as found (adoptExisting, \`secretops import\`, or an AppConnectionSettings
whose connection already matched) and has not written since made no change for the audit log to
show: no event is looked for (adoptedAsFound in its outputs), and it is counted apart. Neither is
one for a ProjectIdentityMembership: the service's identity-memberships routes record no event. Endpoint and token: the flags, else the stack's secretops:* config, else the
environment. Exit codes: 0 all found, 1 any missing or the service failed, 2 bad usage.`,
    )
    .action(async (o: VerifyOptions) => {
      const marginMs = Date.now() - Date.parse(parseTime("--margin", o.margin));
      projectDir(o);
      const client = clientFromOptions(o, await stackConfig(o));
      const state = await stackExport(o);
      const manifestTime = state.deployment?.manifest?.time;
      const ours = (state.deployment?.resources ?? []).filter(
        (r) => r.type.startsWith(TYPE_PREFIX) && !r.delete && r.id,
      );
      if (ours.length === 0) {
        process.stdout.write("no secretops resources in the stack's state\n");
        return;
      }
      // Adopted as found and not written since: the stack made no change for the log to show.
      const adopted = ours.filter((r) => r.outputs?.adoptedAsFound === true);
      const unaudited = ours.filter(
        (r) => !adopted.includes(r) && appliedEvents[r.type.slice(TYPE_PREFIX.length) as ResourceType]?.unaudited,
      );
      const expected = ours
        .filter((r) => !adopted.includes(r) && !unaudited.includes(r))
        .map((r) => {
          const type = r.type.slice(TYPE_PREFIX.length) as ResourceType;
          // When the object last reached the declared state (provider/state.ts, changedAt, left out
          // while it is the updatedAt output); state from older releases that has neither has only
          // the time the state last changed the resource.
          const changedAt = r.outputs ? changedAtIn(r.outputs) : undefined;
          const since = Date.parse(changedAt ?? r.modified ?? r.created ?? manifestTime ?? "") - marginMs;
          if (!appliedEvents[type] || Number.isNaN(since)) {
            throw new Failure(
              `cannot verify ${r.urn}: ${appliedEvents[type] ? "no time in the state" : "unknown type"}`,
            );
          }
          const byProject = appliedEvents[type].byProject && typeof r.outputs?.projectId === "string";
          const idOutput = appliedEvents[type].idOutput;
          const id = byProject ? String(r.outputs?.projectId) : idOutput ? String(r.outputs?.[idOutput]) : r.id!;
          return { type, name: r.urn.split("::").pop()!, id, since };
        });
      const seen = await eventsSince(client, expected);
      const missing = expected.filter((x) => !(seen.get(`${x.type} ${x.id}`) ?? []).some((t) => t >= x.since));
      for (const m of missing) {
        const a = appliedEvents[m.type];
        process.stdout.write(
          `missing: ${m.type} ${m.name} ${m.id}: no ${a.types.join(" or ")} event since ${new Date(m.since).toISOString()}\n`,
        );
      }
      if (missing.length > 0) {
        throw new Failure(
          `${missing.length} of ${counted(ours.length, "secretops resource")} ${missing.length === 1 ? "has" : "have"} no create/update event`,
        );
      }
      process.stdout.write(
        `${counted(ours.length, "secretops resource")} verified: ${verified(expected, adopted, unaudited)}\n`,
      );
    });
}

/**
 * What the verified resources showed: each written one its event; the ones adopted as found, and
 * those of a family whose routes record no event, none to look for.
 */
function verified(written: readonly unknown[], adopted: readonly unknown[], unaudited: readonly unknown[]): string {
  const none = "adopted as found with no write (no event to look for)";
  const apart = unaudited.length
    ? `; ${unaudited.length} ${unaudited.length === 1 ? "was" : "were"} written by routes that record no event`
    : "";
  if (!adopted.length) return `${written.length ? "each has its create/update event" : "none has an event"}${apart}`;
  if (!written.length && !unaudited.length) return `each was ${none}`;
  const found = `${written.length} ${written.length === 1 ? "has its" : "have their"} create/update event`;
  return `${found}, ${adopted.length} ${adopted.length === 1 ? "was" : "were"} ${none}${apart}`;
}

/**
 * The families' events since the earliest time expected, by family and id: one walk over every
 * family's events rather than one query per resource, as reads are rate limited (60 a minute by
 * default). None when no event is expected.
 */
async function eventsSince(
  client: ReturnType<typeof clientFromOptions>,
  expected: readonly { since: number }[],
): Promise<Map<string, number[]>> {
  const seen = new Map<string, number[]>();
  if (!expected.length) return seen;
  const start = new Date(Math.min(...expected.map((e) => e.since))).toISOString();
  const types = [...new Set(Object.values(appliedEvents).flatMap((a) => a.types))];
  try {
    for await (const e of client.auditLogs.iterate({ eventType: types, startDate: start })) record(seen, e);
  } catch (e) {
    throw apiFailure(e);
  }
  return seen;
}

function record(seen: Map<string, number[]>, e: AuditLogEntry): void {
  for (const [type, a] of Object.entries(appliedEvents)) {
    const id = a.byProject ? e.projectId : e.event.metadata[a.idKey];
    if (!a.types.includes(e.event.type) || typeof id !== "string") continue;
    const key = `${type} ${id}`;
    seen.set(key, [...(seen.get(key) ?? []), Date.parse(e.createdAt)]);
  }
}

interface Exported {
  deployment?: { manifest?: { time?: string }; resources?: StateResource[] };
}

/** `pulumi stack export`: secrets stay encrypted, and only ids, types and times are read. */
async function stackExport(o: VerifyOptions): Promise<Exported> {
  const bin = o.pulumi ?? "pulumi";
  const args = ["stack", "export", ...(o.stack ? ["--stack", o.stack] : [])];
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(bin, args, {
      cwd: projectDir(o),
      maxBuffer: 256 * 1024 * 1024,
    }));
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === "ENOENT") throw new UsageError(`${bin} not found: put the pulumi CLI on PATH or pass --pulumi`);
    throw new Failure(`${bin} ${args.join(" ")} failed: ${(err.stderr ?? err.message).trim()}`);
  }
  try {
    return JSON.parse(stdout) as Exported;
  } catch {
    throw new Failure(`${bin} ${args.join(" ")} did not print a JSON state`);
  }
}
