import { readFileSync } from "node:fs";
import { z } from "zod";
import {
  appConnectionApps,
  appConnectionCreateSchema,
  appConnectionKind,
  appConnectionKinds,
  formatIssue,
  formatIssueList,
  issuesFromZod,
  uuid,
} from "../sdk/schemas";
import fixtureFile from "./fixtures/default.json";
import { newConnection, type ConnectionCreateBody } from "./routes/app-connections";
import { sha256Hex } from "./hashing";
import { legacyUniversalAuth, newIdentity } from "./identity-records";
import { legacyMemberships } from "./permissions";
import { planNames, type PlanSetting } from "./plan";
import { fixtureCa, newEnvironment, newFolder, newPolicy, newProject, newSecret } from "./records";
import type { Store, StoreSnapshot } from "./store";
import type { Environment, Folder, Project } from "./types";

/**
 * Fixture files seed the tenancy the service has before any API call: organizations, projects
 * with environments and folders, machine identities with their tokens and universal-auth
 * clients, gateways, app connections (in the default fixtures, one per kind: see below), certificate
 * authorities and policies, and secrets already present in folders. This schema describes the
 * fixture file format, which is the emulator's own (not an API shape).
 */
const name = z.string().min(1);
export const FixturesSchema = z.object({
  organizations: z.array(z.object({ id: uuid, name, slug: name })).min(1),
  projects: z.array(
    z.object({
      id: uuid,
      orgId: uuid,
      name,
      slug: name,
      type: z.string().default("secret-manager"),
      environments: z.array(
        z.object({
          id: uuid,
          name,
          slug: name,
          folders: z.array(z.object({ id: uuid, path: z.string().startsWith("/") })).default([]),
        }),
      ),
    }),
  ),
  /** The first identity is the default one: its first token is printed and returned by startEmulator. */
  identities: z
    .array(
      z.object({
        id: uuid,
        orgId: uuid,
        name,
        tokens: z.array(z.string().min(8)).default([]),
        projectIds: z.array(uuid).default([]),
        /** Its organization role (default `admin`: the fixture identities administer their organization). */
        role: z.string().min(1).default("admin"),
        hasDeleteProtection: z.boolean().default(false),
        /** A universal-auth auth with this client id, and one client secret of this secret. */
        universalAuth: z
          .object({
            clientId: name,
            clientSecret: name,
            accessTokenTTL: z.number().int().positive().default(7200),
            accessTokenMaxTTL: z.number().int().positive().default(2592000),
            lockoutEnabled: z.boolean().default(true),
          })
          .optional(),
      }),
    )
    .min(1),
  gateways: z.array(z.object({ id: uuid, orgId: uuid, name })).default([]),
  /** `id`, `orgId`, `app`, and the rest is the create body of that kind (name, method, credentials, ...). */
  appConnections: z.array(z.looseObject({ id: uuid, orgId: uuid, app: name })).default([]),
  certificateAuthorities: z
    .array(z.object({ id: uuid, projectId: uuid, name, type: z.enum(["internal", "external"]) }))
    .default([]),
  certificatePolicies: z.array(z.object({ id: uuid, projectId: uuid, name })).default([]),
  secrets: z.array(z.object({ folderId: uuid, key: name, value: z.string() })).default([]),
  /** The license plan (emulator/plan.ts): `unlicensed` (the default), `licensed`, or feature overrides. */
  plan: z.union([z.enum(planNames), z.record(z.string(), z.unknown())]).optional(),
});
export type Fixtures = z.input<typeof FixturesSchema>;

/**
 * The default fixtures: fixtures/default.json, and one org-level connection of every kind of
 * `appConnectionKinds` made from its row's example, named `emulator-<app>`, with the id
 * `50000000-0000-4000-8000-0000000000NN` where NN is the kind's place in the table (so a new kind
 * goes at the table's end, and the ids tests know stay put). A new kind brings its fixture
 * connection with its row.
 */
export const defaultFixtures = {
  ...fixtureFile,
  appConnections: [
    ...appConnectionApps.map((app, i) => ({
      id: `50000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`,
      orgId: fixtureFile.organizations[0]!.id,
      app,
      name: `emulator-${app}`,
      method: appConnectionKinds[app].example.method,
      credentials: appConnectionKinds[app].example.credentials,
      description: `Emulator ${app} connection`,
    })),
    ...fixtureFile.appConnections,
  ],
};

export function readFixtures(source: Fixtures | string | undefined): z.output<typeof FixturesSchema> {
  const raw: unknown =
    source === undefined
      ? defaultFixtures
      : typeof source === "string"
        ? JSON.parse(readFileSync(source, "utf8"))
        : source;
  const r = FixturesSchema.safeParse(raw);
  if (!r.success) throw new Error(`invalid fixtures:\n${issuesFromZod(r.error.issues).map(formatIssue).join("\n")}`);
  return r.data;
}

/** A uuid derived from a seed, so generated fixture ids are stable across restarts. */
export function stableUuid(seed: string): string {
  const h = sha256Hex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type ParsedFixtures = z.output<typeof FixturesSchema>;

/** Builds the initial state from fixtures, checking every reference. */
export function seedFromFixtures(source: Fixtures | string | undefined): StoreSnapshot {
  const fx = readFixtures(source);
  const fail = (msg: string): never => {
    throw new Error(`invalid fixtures: ${msg}`);
  };
  const now = new Date().toISOString();
  const orgIds = new Set(fx.organizations.map((o) => o.id));
  const { projects, environments, folders } = seedTenancy(fx, orgIds, now, fail);
  const projectIds = new Set(projects.map((p) => p.id));
  const folderIds = new Set(folders.map((f) => f.id));
  for (const i of fx.identities) {
    if (!orgIds.has(i.orgId)) fail(`identity ${i.id} names unknown organization ${i.orgId}`);
    for (const p of i.projectIds) if (!projectIds.has(p)) fail(`identity ${i.id} names unknown project ${p}`);
  }
  const defaultIdentity = fx.identities[0]!;
  const defaultToken = defaultIdentity.tokens[0] ?? fail(`the first identity (${defaultIdentity.id}) needs a token`);
  const appConnections = seedConnections(fx, orgIds, projectIds, now, fail);
  // CAs and policies live in certificate-manager projects, as at the service (docs/service-api.md §10).
  const typeOf = new Map(projects.map((p) => [p.id, p.type]));
  for (const [what, projectId] of [
    ...fx.certificateAuthorities.map((ca) => [`CA ${ca.id}`, ca.projectId] as const),
    ...fx.certificatePolicies.map((p) => [`policy ${p.id}`, p.projectId] as const),
  ]) {
    const type = typeOf.get(projectId) ?? fail(`${what} names unknown project ${projectId}`);
    if (type !== "cert-manager")
      fail(`${what} is in project ${projectId} of type ${type}: it needs a cert-manager project`);
  }
  for (const s of fx.secrets)
    if (!folderIds.has(s.folderId)) fail(`secret ${s.key} names unknown folder ${s.folderId}`);

  const uaClients = fx.identities.flatMap((i) =>
    i.universalAuth ? [legacyUniversalAuth(i.id, i.universalAuth, now, i.universalAuth.lockoutEnabled)] : [],
  );

  return {
    format: 1,
    defaultIdentityId: defaultIdentity.id,
    defaultToken,
    organizations: fx.organizations,
    projects,
    environments,
    folders,
    identities: fx.identities.map((i) =>
      newIdentity(
        {
          id: i.id,
          orgId: i.orgId,
          name: i.name,
          role: i.role,
          hasDeleteProtection: i.hasDeleteProtection,
        },
        now,
      ),
    ),
    // A fixture identity's projects are its admin memberships.
    identityMemberships: legacyMemberships(fx.identities, now),
    identityAuths: uaClients.map((c) => c.auth),
    clientSecrets: uaClients.map((c) => c.secret),
    ...(fx.plan !== undefined && { plan: fx.plan as PlanSetting }),
    accessTokens: fx.identities.flatMap((i) => i.tokens.map((token) => ({ token, identityId: i.id, expiresAt: null }))),
    gateways: fx.gateways,
    certificateAuthorities: fx.certificateAuthorities.map((ca) => fixtureCa(ca, now)),
    certificatePolicies: fx.certificatePolicies.map((p) => newPolicy(p, now)),
    appConnections,
    secretSyncs: [],
    secretRotations: [],
    certificateProfiles: [],
    secrets: fx.secrets.map((s) => newSecret({ ...s, id: stableUuid(`${s.folderId}:${s.key}`) }, now)),
  };
}

/** The projects, their environments (in the fixture's order) and folders. */
function seedTenancy(fx: ParsedFixtures, orgIds: Set<string>, now: string, fail: (msg: string) => never) {
  const projects: Project[] = [];
  const environments: Environment[] = [];
  const folders: Folder[] = [];
  for (const p of fx.projects) {
    if (!orgIds.has(p.orgId)) fail(`project ${p.id} names unknown organization ${p.orgId}`);
    projects.push(newProject({ id: p.id, orgId: p.orgId, name: p.name, slug: p.slug, type: p.type }, now));
    p.environments.forEach((e, i) => {
      const env = newEnvironment({ id: e.id, projectId: p.id, name: e.name, slug: e.slug, position: i + 1 }, now);
      environments.push(env);
      folders.push(...seedFolders(env, e.folders, now));
    });
  }
  return { projects, environments, folders };
}

/** An environment's folders: the listed ones, their parents and the root, parents first. */
function seedFolders(env: Environment, listed: { id: string; path: string }[], now: string): Folder[] {
  const paths = new Set<string>(["/"]);
  for (const f of listed) {
    const parts = f.path.split("/").filter(Boolean);
    for (let i = 1; i <= parts.length; i++) paths.add(`/${parts.slice(0, i).join("/")}`);
  }
  const byPath = new Map<string, Folder>();
  const depth = (path: string) => path.split("/").filter(Boolean).length;
  for (const path of [...paths].sort((a, b) => depth(a) - depth(b))) {
    const at = path.lastIndexOf("/");
    const parent = path === "/" ? null : byPath.get(at === 0 ? "/" : path.slice(0, at))!;
    const id = listed.find((f) => f.path === path)?.id ?? stableUuid(`${env.id}:${path}`);
    byPath.set(path, newFolder(env, parent, path.slice(at + 1), now, id));
  }
  return [...byPath.values()];
}

function seedConnections(
  fx: ParsedFixtures,
  orgIds: Set<string>,
  projectIds: Set<string>,
  now: string,
  fail: (msg: string) => never,
) {
  return fx.appConnections.map((c) => {
    const kind = appConnectionKind(c.app) ?? fail(`connection ${c.id} has unknown app "${c.app}"`);
    if (!orgIds.has(c.orgId)) fail(`connection ${c.id} names unknown organization ${c.orgId}`);
    const createBody = Object.fromEntries(
      Object.entries(c).filter(([k]) => k !== "id" && k !== "orgId" && k !== "app"),
    );
    const r = appConnectionCreateSchema(kind).safeParse(createBody);
    if (!r.success) fail(`connection ${c.id} (${c.app}): ${formatIssueList(issuesFromZod(r.error.issues))}`);
    const body = r.data as ConnectionCreateBody;
    if (body.projectId && !projectIds.has(body.projectId))
      fail(`connection ${c.id} names unknown project ${body.projectId}`);
    return newConnection(kind, body, { id: c.id, orgId: c.orgId, now });
  });
}

/** The `--json` line and `startEmulator().summary` (docs/ARCHITECTURE.md). */
export interface FixtureSummary {
  url: string;
  token: string;
  orgId: string;
  projects: { id: string; name: string; slug: string; environments: string[]; folders: string[] }[];
  connections: { app: string; id: string; name: string; projectId: string | null }[];
  certificateAuthorities: { id: string; projectId: string }[];
  certificatePolicies: { id: string; projectId: string }[];
}

/** What the default identity can use: its organization, its projects, the connections it sees. */
export function summarize(store: Store, url: string): FixtureSummary {
  const identity = store.identities.get(store.defaultIdentityId)!;
  const member = new Set(
    [...store.identityMemberships.values()].filter((m) => m.identityId === identity.id).map((m) => m.projectId),
  );
  const projects = [...store.projects.values()].filter((p) => member.has(p.id) && p.orgId === identity.orgId);
  const envs = [...store.environments.values()];
  const folders = [...store.folders.values()];
  return {
    url,
    token: store.defaultToken,
    orgId: identity.orgId,
    projects: projects.map((p) => ({
      id: p.id,
      name: p.name,
      slug: p.slug,
      environments: envs.filter((e) => e.projectId === p.id).map((e) => e.slug),
      folders: [...new Set(folders.filter((f) => f.projectId === p.id).map((f) => f.path))].sort(),
    })),
    connections: [...store.connections.values()]
      .filter((c) => c.orgId === identity.orgId && (c.projectId === null || member.has(c.projectId)))
      .map((c) => ({ app: c.app, id: c.id, name: c.name, projectId: c.projectId })),
    certificateAuthorities: [...store.cas.values()]
      .filter((c) => member.has(c.projectId))
      .map((c) => ({ id: c.id, projectId: c.projectId })),
    certificatePolicies: [...store.policies.values()]
      .filter((c) => member.has(c.projectId))
      .map((c) => ({ id: c.id, projectId: c.projectId })),
  };
}
