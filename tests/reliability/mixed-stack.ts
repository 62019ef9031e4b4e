import type { SecretOpsClient } from "../../sdk";
import type { FixtureSummary } from "../engine/lifecycle";

/**
 * A stack of every family, for the reliability suite: `count` resources in the proportions a
 * platform team's stack has (syncs, rotations, certificate profiles, a few managed connections),
 * and a census of what the service holds afterwards.
 */

export interface Declared {
  kind: "SecretSync" | "SecretRotation" | "CertificateProfile" | "AppConnectionSettings";
  name: string;
  args: Record<string, unknown>;
}

/** The EST passphrases, as the program takes them from secret config (`resources:secrets`). */
export type Secrets = Record<string, { estConfig: { passphrase: string } }>;

export function mixedResources(
  f: FixtureSummary,
  count: number,
  tag: string,
): { resources: Declared[]; secrets: Secrets } {
  const project = f.projects[0]!;
  const conn = (app: string) => f.connections.find((c) => c.app === app && !c.projectId)!.id;
  // Profiles live in a cert-manager project: the fixture's, with its CA and policy.
  const policy = f.certificatePolicies[0]!;
  const ca = f.certificateAuthorities.find((c) => c.projectId === policy.projectId)!;
  // Connections are managed, never made: one resource per fixture connection at most.
  const managed = f.connections.filter((c) => !c.projectId).slice(0, Math.min(10, Math.floor(count / 10)));
  const rest = count - managed.length;
  const syncs = Math.ceil((rest * 4) / 10);
  const rotations = Math.floor((rest - syncs) / 2);
  const profiles = rest - syncs - rotations;

  const resources: Declared[] = [];
  const secrets: Secrets = {};
  for (let i = 0; i < syncs; i++) {
    resources.push({
      kind: "SecretSync",
      name: `sync-${i}`,
      args: {
        destination: "vercel",
        name: `${tag}-sync-${i}`,
        projectId: project.id,
        connectionId: conn("vercel"),
        environment: project.environments[0],
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { app: `prj_${tag}_${i}`, appName: `app-${i}`, env: "production", teamId: "team_1" },
      },
    });
  }
  for (let i = 0; i < rotations; i++) {
    resources.push({
      kind: "SecretRotation",
      name: `rotation-${i}`,
      args: {
        type: "postgres-credentials",
        name: `${tag}-rot-${i}`,
        projectId: project.id,
        connectionId: conn("postgres"),
        environment: project.environments[0],
        secretPath: "/",
        rotationInterval: 30,
        parameters: { username1: "app_a", username2: "app_b" },
        // Mapped secret names are unique in a folder.
        secretsMapping: { username: `${tag.toUpperCase()}_USER_${i}`, password: `${tag.toUpperCase()}_PASSWORD_${i}` },
      },
    });
  }
  for (let i = 0; i < profiles; i++) {
    const est = i % 2 === 0;
    const name = `profile-${i}`;
    resources.push({
      kind: "CertificateProfile",
      name,
      args: {
        projectId: policy.projectId,
        certificatePolicyId: policy.id,
        caId: ca.id,
        slug: `${tag}-profile-${i}`,
        ...(est
          ? {
              enrollmentType: "est",
              estConfig: { disableBootstrapCaValidation: false },
              secretFieldsFrom: ["estConfig"],
            }
          : { enrollmentType: "api", apiConfig: { autoRenew: true, renewBeforeDays: 7 } }),
        defaults: { ttlDays: 90, keyAlgorithm: "RSA_2048", keyUsages: ["digital_signature"] },
      },
    });
    if (est) secrets[name] = { estConfig: { passphrase: `canary-est-${tag}-${i}` } };
  }
  managed.forEach((c, i) =>
    resources.push({
      kind: "AppConnectionSettings",
      name: `connection-${i}`,
      args: { app: c.app, connectionId: c.id, description: `managed by ${tag}` },
    }),
  );
  return { resources, secrets };
}

/**
 * What the service holds of the declared objects (`mixedResources` of the fixtures `f`): each name
 * or slug with how many objects carry it.
 */
export async function census(client: SecretOpsClient, f: FixtureSummary, declared: Declared[]) {
  const counts = new Map<string, number>();
  const projectId = f.projects[0]!.id;
  const syncs = await client.secretSyncs.list("vercel", projectId);
  const rotations = await client.secretRotations.list("postgres-credentials", projectId);
  const profiles = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.certificateProfiles.list({
      projectId: f.certificatePolicies[0]!.projectId,
      offset,
      limit: 100,
    });
    profiles.push(...page.certificateProfiles);
    if (page.certificateProfiles.length < 100) break;
  }
  for (const s of syncs) counts.set(`SecretSync/${s.name}`, (counts.get(`SecretSync/${s.name}`) ?? 0) + 1);
  for (const r of rotations) counts.set(`SecretRotation/${r.name}`, (counts.get(`SecretRotation/${r.name}`) ?? 0) + 1);
  for (const p of profiles)
    counts.set(`CertificateProfile/${p.slug}`, (counts.get(`CertificateProfile/${p.slug}`) ?? 0) + 1);
  const key = (d: Declared) => `${d.kind}/${String(d.args.name ?? d.args.slug)}`;
  const made = declared.filter((d) => d.kind !== "AppConnectionSettings");
  return {
    missing: made.filter((d) => !counts.get(key(d))).map(key),
    duplicated: made.filter((d) => (counts.get(key(d)) ?? 0) > 1).map(key),
    /** Objects of these families on the service that the program does not declare. */
    undeclared: [...counts.keys()].filter((k) => !made.some((d) => key(d) === k)),
    objects: { syncs, rotations, profiles },
  };
}
