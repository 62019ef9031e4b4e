import * as fs from "node:fs";
import * as path from "node:path";
import { Command } from "commander";
import { certificateAuthorityDefinition } from "../provider/certificate-authority";
import { certificatePolicyDefinition } from "../provider/certificate-policy";
import { certificateProfileDefinition } from "../provider/certificate-profile";
import { projectIdentityMembershipDefinition } from "../provider/project-identity-membership";
import type { PlacedSecret } from "../provider/secret";
import { type PlacedFolder, childPath } from "../provider/secret-folder";
import { secretRotationDefinition } from "../provider/secret-rotation";
import { secretSyncDefinition } from "../provider/secret-sync";
import { type SecretOpsClient, SecretOpsApiError } from "../sdk";
import {
  appConnectionApps,
  closest,
  enrollmentTypeNames,
  reservedProjectRoleSlugs,
  rotationTypeSlugs,
  syncDestinationSlugs,
} from "../sdk/schemas";
import { apiFailure } from "./audit";
import {
  type ConnectionOptions,
  type StackOptions,
  UsageError,
  addConnectionOptions,
  clientFromOptions,
  projectDir,
  stackConfig,
  warn,
} from "./common";
import {
  FAMILIES,
  type Family,
  type Found,
  familyCounts,
  hasEnvironment,
  importProgram,
  programFiles,
  traitsOf,
} from "./import-program";

interface ImportOptions extends ConnectionOptions, StackOptions {
  project: string[];
  kind?: string[];
  environment?: string[];
  name?: string[];
  out?: string;
  module: string;
  force?: boolean;
  retainOnDelete: boolean;
}

const collect = (v: string, acc: string[] | undefined) => [...(acc ?? []), v];

/** `--kind` values naming a family; any other value is a kind's slug. */
const familyWords: Record<string, Family> = {
  project: "projects",
  projects: "projects",
  environment: "environments",
  environments: "environments",
  folder: "folders",
  folders: "folders",
  secret: "secrets",
  secrets: "secrets",
  connection: "connections",
  connections: "connections",
  sync: "syncs",
  syncs: "syncs",
  rotation: "rotations",
  rotations: "rotations",
  ca: "authorities",
  cas: "authorities",
  authority: "authorities",
  authorities: "authorities",
  policy: "policies",
  policies: "policies",
  profile: "profiles",
  profiles: "profiles",
  role: "roles",
  roles: "roles",
  membership: "memberships",
  memberships: "memberships",
};
/** The kinds' slugs `--kind` takes, by the family they select in. */
const familyKinds: Partial<Record<Family, readonly string[]>> = {
  connections: appConnectionApps,
  syncs: syncDestinationSlugs,
  rotations: rotationTypeSlugs,
  profiles: enrollmentTypeNames,
};
const kindSlugs = [...new Set(Object.values(familyKinds).flat())];

/** A shell-style pattern (`*`, `?`) as an anchored regular expression. */
function pattern(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}

export function importCommand(): Command {
  return addConnectionOptions(
    new Command("import")
      .description(
        "Write a TypeScript Pulumi program (or a module of one) declaring what a project already has: the project, " +
          "its environments, folders and secrets, app connections, secret syncs and rotations, certificate " +
          "authorities, policies and profiles, custom project roles and identity memberships, each adopting its " +
          "object, so that `pulumi up` brings them under code " +
          "without writing to them.",
      )
      .requiredOption("--project <id>", "a project to read (repeatable)", collect)
      .option(
        "--kind <kind>",
        `only this family (${FAMILIES.join(", ")}) or kind (a destination, rotation type, connection kind or enrollment type); repeatable`,
        collect,
      )
      .option(
        "--environment <slug>",
        "only environments, folders, secrets, syncs and rotations of this environment (repeatable)",
        collect,
      )
      .option(
        "--name <pattern>",
        "only objects whose name (a project's, environment's or profile's slug, a folder's name, a secret's key) matches, * and ? as wildcards (repeatable)",
        collect,
      )
      .option("--out <dir>", "where to write (default: -C or the current directory)")
      .option("--module <name>", "the module's file name, without .ts", "imported")
      .option("--force", "overwrite files that exist")
      .option("--no-retain-on-delete", "let a destroy (or removing a resource) delete the object at the service")
      .option("--stack <name>", "read secretops:* config of this stack (default: the selected stack)")
      .option("-C, --cwd <dir>", "the Pulumi project whose stack config to read (default: the current directory)")
      .option("--pulumi <path>", "the pulumi CLI to run (default: pulumi on PATH)"),
  )
    .addHelpText(
      "after",
      `
In a directory holding a Pulumi.yaml, only the module is written (<module>.ts): import it from the
program's entry point. Elsewhere a whole program is written: Pulumi.yaml, package.json,
tsconfig.json, index.ts and the module. Files that exist are left alone unless --force.

Resources name the ones they hang on by variable (projectId: project.id, environment: prod.slug,
secretPath: folder.secretPath, connectionId, caId…); the connections the imported objects use are
written too, as are the connections of the projects. Secret values are never read (secrets are
listed without them), and those the service never returns (connection credentials, EST
passphrases, SCEP challenge passwords) neither: each is read with config.requireSecret, the
commands to set them are printed, and no secret is ever written to a file. Reads: one for the
connections, and per project one for the project (its type decides what it holds); of a
secret-manager project, one per environment, one for each environment's folders, one per folder
(and root) for its secrets, one each for the syncs and rotations; of a cert-manager project, one
for the CAs and one per 100 policies and profiles; of any project, one for its roles and one per
custom role (for its permissions), and one for its identity memberships (identities named by id);
fewer with --kind and --environment.
Exit codes: 0 written, 1 the service failed, 2 bad usage (or files that exist, without --force).`,
    )
    .action(async (o: ImportOptions) => {
      const kinds = o.kind ?? [];
      for (const k of kinds) {
        if (!familyWords[k] && !kindSlugs.includes(k)) {
          const near = closest(k, [...Object.keys(familyWords), ...kindSlugs]);
          throw new UsageError(
            `--kind: "${k}" is neither a family (${FAMILIES.join(", ")}) nor a kind slug${near ? `; did you mean "${near}"?` : ""}`,
          );
        }
      }
      const names = (o.name ?? []).map(pattern);
      const outDir = path.resolve(o.out ?? projectDir(o));
      if (!/^[A-Za-z0-9_-]+$/.test(o.module)) {
        throw new UsageError(`--module: "${o.module}" must be a file name of letters, digits, - and _, without .ts`);
      }
      const files = plannedFiles(outDir, o.module);
      const existing = [...files.keys()].filter((f) => fs.existsSync(f));
      if (existing.length && !o.force) {
        throw new UsageError(
          `not overwriting ${existing.map((f) => path.relative(process.cwd(), f) || f).join(", ")}: pass --force to replace`,
        );
      }

      // A family is read only when `--kind` can select something of it.
      const familyWanted = (family: Family) =>
        !kinds.length || kinds.some((k) => familyWords[k] === family || familyKinds[family]?.includes(k));
      const inEnvironment = (env: string | undefined) =>
        !o.environment?.length || (env !== undefined && o.environment.includes(env));
      const client = clientFromOptions(o, await stackConfig(o));
      const progress = progressLine();
      let found: Found;
      try {
        found = await readProjects(client, o.project, { familyWanted, inEnvironment }, progress);
      } catch (e) {
        progress.done();
        throw apiFailure(e);
      }
      progress.done();

      const wanted = <F extends Family>(family: F, remote: Found[F][number]) => {
        const { name, kind, environment } = traitsOf(family, remote);
        return (
          (!kinds.length || kinds.some((k) => familyWords[k] === family || k === kind)) &&
          (!names.length || names.some((n) => n.test(name))) &&
          (!hasEnvironment(family) || inEnvironment(environment))
        );
      };
      const selected = Object.fromEntries(
        FAMILIES.map((f) => [f, (found[f] as Found[typeof f][number][]).filter((x) => wanted(f, x))]),
      ) as unknown as Found;
      // The projects' own connections, and the organization's that what is imported uses.
      const used = new Set([...selected.syncs, ...selected.rotations].map((x) => x.connectionId));
      selected.connections = selected.connections.filter(
        (c) => (c.projectId != null && o.project.includes(c.projectId)) || used.has(c.id),
      );

      const program = importProgram(selected, {
        retainOnDelete: o.retainOnDelete,
        projects: o.project,
        rotations: found.rotations,
      });
      files.set(path.join(outDir, `${o.module}.ts`), program.source);
      fs.mkdirSync(outDir, { recursive: true });
      for (const [file, content] of files) fs.writeFileSync(file, content);

      const out = (line = "") => process.stdout.write(`${line}\n`);
      const written = familyCounts(program.counts);
      out(`wrote ${[...files.keys()].map((f) => path.relative(process.cwd(), f) || f).join(", ")}: ${written}`);
      for (const s of program.skipped) out(`skipped: ${s.family} ${s.name}: ${s.reason}`);
      out();
      out("Next:");
      if (files.size > 1)
        out(`  cd ${path.relative(process.cwd(), outDir) || "."} && npm install && pulumi stack init`);
      else out(`  import it from the program's entry point: import "./${o.module}";`);
      if (program.secrets.length) {
        out("  # each secret, as the value the service holds (the same value is not sent):");
        for (const s of program.secrets) out(`  pulumi config set --secret ${s.key}    # ${s.resource}: ${s.path}`);
      }
      out("  pulumi up");
    });
}

/**
 * The files to write, the module's content still to come: only the module inside a Pulumi project,
 * else a whole program.
 */
function plannedFiles(dir: string, module: string): Map<string, string> {
  const files = new Map<string, string>();
  const inProject = ["Pulumi.yaml", "Pulumi.yml"].some((f) => fs.existsSync(path.join(dir, f)));
  if (!inProject) {
    const name = path.basename(dir).replace(/[^A-Za-z0-9_.-]/g, "-") || "imported";
    const pulumiVersion = (require("@pulumi/pulumi/package.json") as { version: string }).version;
    const all = programFiles({
      name,
      module,
      packageSpec: installedSpec(dir),
      pulumiSpec: `^${pulumiVersion}`,
    });
    for (const [file, content] of all) files.set(path.join(dir, file), content);
  }
  files.set(path.join(dir, `${module}.ts`), "");
  return files;
}

/** package.json's `dependencies`, `devDependencies` and `optionalDependencies` of a directory, if any. */
function declaredDependencies(dir: string): Record<string, string> {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
    return Object.assign(
      {},
      ...["optionalDependencies", "devDependencies", "dependencies"].map((k) => pkg[k] ?? {}),
    ) as Record<string, string>;
  } catch {
    return {};
  }
}

/** `file:<path>` from `from`, with forward slashes (npm reads them on every system). */
const fileSpec = (from: string, target: string) =>
  `file:${(path.relative(from, target) || ".").split(path.sep).join("/")}`;

/**
 * How a program written in `outDir` depends on this package: the way the importing user has it,
 * so that the printed `npm install` installs what ran the import. Installed under a project's
 * node_modules, that project's own specifier: a tarball or directory (`file:`, re-aimed from
 * `outDir`) or a git or URL specifier as is, else (a registry) the installed version exactly. Not
 * under node_modules (a checkout, or a directory npm linked): that directory.
 */
export function installedSpec(outDir: string, packageDir = path.resolve(__dirname, "..", "..")): string {
  const real = fs.realpathSync(packageDir);
  const pkg = JSON.parse(fs.readFileSync(path.join(real, "package.json"), "utf8")) as { name: string; version: string };
  const parts = real.split(path.sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return fileSpec(outDir, real);
  const consumer = parts.slice(0, at).join(path.sep) || path.sep;
  const spec = declaredDependencies(consumer)[pkg.name];
  if (spec?.startsWith("file:")) return fileSpec(outDir, path.resolve(consumer, spec.slice("file:".length)));
  if (spec && /^(git\+|git:|github:|gitlab:|bitbucket:|gist:|https?:)/.test(spec)) return spec;
  return pkg.version;
}

/** Progress on stderr: one line rewritten in place on a terminal, a line per step otherwise. */
function progressLine() {
  const tty = process.stderr.isTTY === true;
  let shown = false;
  return {
    show(text: string) {
      if (tty) process.stderr.write(`\r\x1b[2K${text}`);
      else warn(text);
      shown = true;
    },
    done() {
      if (tty && shown) process.stderr.write("\n");
      shown = false;
    },
  };
}

/** Which objects the reads are for: the families `--kind` selects, the environments `--environment` names. */
interface ReadScope {
  familyWanted(family: Family): boolean;
  inEnvironment(slug: string): boolean;
}

const noneFound = (): Found => ({
  projects: [],
  environments: [],
  folders: [],
  secrets: [],
  connections: [],
  syncs: [],
  rotations: [],
  authorities: [],
  policies: [],
  profiles: [],
  roles: [],
  memberships: [],
});

/**
 * Everything the projects hold, in few reads, of the families wanted only: the organization's
 * connections of every kind in one call (a project's own, when the caller may not list the
 * organization's); per project, the project with its type and its environments' list in one; of a
 * secret-manager project, each environment in one (its position), its folders in one (recursive)
 * and its secrets in one per folder, without their values, one list of syncs and one of rotations
 * (also for the secrets: those a rotation writes are left out); of a cert-manager project, one list
 * of CAs and the policies and profiles by pages of 100 (the definitions' `listed`); of any project,
 * its roles in one (and each custom role by its slug, for its permissions) and its identity
 * memberships in one.
 */
async function readProjects(
  client: SecretOpsClient,
  projects: readonly string[],
  scope: ReadScope,
  progress: ReturnType<typeof progressLine>,
): Promise<Found> {
  const found = noneFound();
  const wants = scope.familyWanted;
  if (wants("connections")) {
    progress.show("reading connections…");
    try {
      found.connections = await client.appConnections.listAll();
    } catch (e) {
      if (!(e instanceof SecretOpsApiError && e.status === 403)) throw e;
      // Allowed in the projects only: their own connections (organization ones stay ids).
      found.connections = (
        await Promise.all(projects.map((projectId) => client.appConnections.listAll({ projectId })))
      ).flat();
    }
  }
  // Each list with the type of project that holds its family: the service refuses the others
  // (docs/service-api.md §10), so a project is read first, for its type.
  const lists = [
    ["syncs", secretSyncDefinition, "secret-manager"],
    ["rotations", secretRotationDefinition, "secret-manager"],
    ["authorities", certificateAuthorityDefinition, "cert-manager"],
    ["policies", certificatePolicyDefinition, "cert-manager"],
    ["profiles", certificateProfileDefinition, "cert-manager"],
  ] as const;
  const projectFamilies = [
    "projects",
    "environments",
    "folders",
    "secrets",
    ...lists.map(([f]) => f),
    "roles",
    "memberships",
  ] as const;
  for (const [i, projectId] of projects.entries()) {
    const step = `project ${projectId} (${i + 1} of ${projects.length})`;
    if (!projectFamilies.some(wants)) continue;
    progress.show(`${step}: the project…`);
    const project = await client.projects.get(projectId);
    if (wants("projects")) found.projects.push(project);
    // Environments, folders and secrets are a secret-manager project's.
    if (project.type === "secret-manager" && (["environments", "folders", "secrets"] as const).some(wants)) {
      for (const env of (project.environments ?? []).filter((e) => scope.inEnvironment(e.slug))) {
        progress.show(`${step}: environment ${env.slug}…`);
        if (wants("environments")) found.environments.push(await client.projectEnvironments.get(projectId, env.id));
        if (!wants("folders") && !wants("secrets")) continue;
        const folders = await readFolders(client, projectId, env.slug);
        if (!wants("secrets")) {
          if (wants("folders")) found.folders.push(...folders);
          continue;
        }
        const { secrets, gone } = await readFolderSecrets(client, { projectId, environment: env.slug }, folders);
        found.secrets.push(...secrets);
        // A folder deleted while the import read is not one to declare.
        if (wants("folders")) found.folders.push(...folders.filter((f) => !gone(childPath(f.parentPath, f.name))));
      }
    }
    for (const [family, definition, type] of lists) {
      if (project.type !== type) continue;
      // The secrets a rotation writes are its own: the rotations are read to leave them out.
      if (!wants(family) && !(family === "rotations" && wants("secrets"))) continue;
      progress.show(`${step}: ${family}…`);
      // Each list's objects are its family's (the definitions' `listed`).
      (found[family] as unknown[]).push(...(await definition.listed.reads.list(client, projectId)));
    }
    // Any project's: its custom roles (one list, then each by its slug for its permissions) and its
    // identities' memberships (one list, with their roles).
    if (wants("roles")) {
      progress.show(`${step}: roles…`);
      found.roles.push(...(await readRoles(client, projectId)));
    }
    if (wants("memberships")) {
      progress.show(`${step}: memberships…`);
      found.memberships.push(...(await projectIdentityMembershipDefinition.listed.reads.list(client, projectId)));
    }
    progress.show(`${step}: ${familyCounts(countsOf(found))} so far`);
  }
  return found;
}

const countsOf = (found: Found) =>
  Object.fromEntries(Object.entries(found).map(([f, objects]) => [f, objects.length])) as Record<Family, number>;

/** A project's custom roles with their permissions: the list has none, so each is read by its slug. */
async function readRoles(client: SecretOpsClient, projectId: string): Promise<Found["roles"]> {
  const custom = (await client.projectRoles.list(projectId)).filter(
    (r) => !(reservedProjectRoleSlugs as readonly string[]).includes(r.slug),
  );
  const roles: Found["roles"] = [];
  for (const r of custom) {
    const role = await client.projectRoles.getBySlug(projectId, r.slug).catch((e: unknown) => {
      // Deleted since the list: not one to declare.
      if (e instanceof SecretOpsApiError && e.status === 404) return undefined;
      throw e;
    });
    if (role) roles.push({ ...role, projectId });
  }
  return roles;
}

/** An environment's folders, every level in one read, each placed by its parent (the root is never listed). */
async function readFolders(client: SecretOpsClient, projectId: string, environment: string): Promise<PlacedFolder[]> {
  const listed = await client.secretFolders.list({ projectId, environment, path: "/", recursive: true });
  const byId = new Map(listed.map((f) => [f.id, f]));
  const parentPath = (f: (typeof listed)[number]): string => {
    const parent = f.parentId ? byId.get(f.parentId) : undefined;
    return parent ? childPath(parentPath(parent), parent.name) : "/";
  };
  return listed.map((f) => ({ ...f, projectId, environmentSlug: environment, parentPath: parentPath(f) }));
}

/**
 * The secrets of an environment's folders, one list each, and whether a path was found gone: a
 * folder deleted since its environment's folders were listed (or its environment) makes its list
 * a 404 (docs/service-api.md §12), and its subfolders went with it.
 */
export async function readFolderSecrets(
  client: SecretOpsClient,
  place: { projectId: string; environment: string },
  folders: readonly PlacedFolder[],
): Promise<{ secrets: PlacedSecret[]; gone(path: string): boolean }> {
  const secrets: PlacedSecret[] = [];
  const deleted: string[] = [];
  const gone = (p: string) => deleted.some((d) => d === "/" || p === d || p.startsWith(`${d}/`));
  for (const secretPath of ["/", ...folders.map((f) => childPath(f.parentPath, f.name))]) {
    if (gone(secretPath)) continue;
    const listed = await readSecrets(client, { ...place, secretPath });
    if (listed) secrets.push(...listed);
    else deleted.push(secretPath);
  }
  return { secrets, gone };
}

/**
 * A folder's secrets: their keys, comments and settings, never their values (not even fetched);
 * undefined when the folder does not exist.
 */
async function readSecrets(
  client: SecretOpsClient,
  place: { projectId: string; environment: string; secretPath: string },
): Promise<PlacedSecret[] | undefined> {
  const listed = await client.secrets.list({ ...place, viewSecretValue: false }).catch((e: unknown) => {
    if (e instanceof SecretOpsApiError && e.status === 404) return undefined;
    throw e;
  });
  if (!listed) return undefined;
  return listed.map(({ secretValue: _hidden, ...s }) => ({
    ...s,
    projectId: s.projectId ?? s.workspace ?? place.projectId,
    environment: s.environment ?? place.environment,
    secretPath: s.secretPath ?? place.secretPath,
  }));
}
