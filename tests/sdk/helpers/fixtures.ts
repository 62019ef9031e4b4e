import { randomUUID } from "node:crypto";
import type { AppConnection, AuditLogEntry, CertificateProfile, SecretRotation, SecretSync } from "../../../sdk";
import { noSyncJobsYet } from "../../../sdk/schemas";

/** Response objects for the stub server, shaped by the shared response schemas' types. */

const now = "2025-01-01T00:00:00.000Z";
export const ids = {
  project: "proj-1",
  connection: "11111111-1111-4111-8111-111111111111",
  sync: "22222222-2222-4222-8222-222222222222",
  rotation: "33333333-3333-4333-8333-333333333333",
  profile: "44444444-4444-4444-8444-444444444444",
  policy: "55555555-5555-4555-8555-555555555555",
  ca: "66666666-6666-4666-8666-666666666666",
};

export function appConnection(over: Partial<AppConnection> = {}): AppConnection {
  return {
    id: ids.connection,
    name: "db",
    orgId: randomUUID(),
    createdAt: now,
    updatedAt: now,
    app: "postgres",
    method: "username-and-password",
    credentials: {
      host: "db.local",
      port: 5432,
      database: "app",
      username: "admin",
      sslEnabled: false,
      sslRejectUnauthorized: true,
    },
    description: null,
    version: 1,
    isPlatformManagedCredentials: false,
    gatewayId: null,
    projectId: ids.project,
    isAutoRotationEnabled: false,
    credentialsHash: "abc",
    project: { name: "P", id: ids.project, type: "secret-manager", slug: "p" },
    ...over,
  };
}

export function secretSync(over: Partial<SecretSync> = {}): SecretSync {
  return {
    id: ids.sync,
    name: "web",
    description: null,
    destination: "vercel",
    isAutoSyncEnabled: true,
    version: 1,
    destinationConfig: { app: "a", appName: "A", env: "development", teamId: "t" },
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    projectId: ids.project,
    folderId: randomUUID(),
    connectionId: ids.connection,
    createdAt: now,
    updatedAt: now,
    ...noSyncJobsYet,
    syncStatus: "pending",
    connection: { app: "vercel", name: "v", id: ids.connection },
    environment: { slug: "dev", name: "Development", id: randomUUID() },
    folder: { id: randomUUID(), path: "/" },
    ...over,
  };
}

export function secretRotation(over: Partial<SecretRotation> = {}): SecretRotation {
  return {
    id: ids.rotation,
    name: "pg",
    description: null,
    type: "postgres-credentials",
    projectId: ids.project,
    folderId: randomUUID(),
    connectionId: ids.connection,
    createdAt: now,
    updatedAt: now,
    rotationInterval: 30,
    rotateAtUtc: { hours: 0, minutes: 0 },
    isAutoRotationEnabled: true,
    parameters: { username1: "a", username2: "b" },
    secretsMapping: { username: "DB_USER", password: "DB_PASS" },
    activeIndex: 0,
    rotationStatus: "success",
    lastRotationAttemptedAt: now,
    lastRotatedAt: now,
    lastRotationMessage: null,
    lastRotationJobId: null,
    nextRotationAt: now,
    isLastRotationManual: false,
    connection: { app: "postgres", name: "db", id: ids.connection },
    environment: { slug: "dev", name: "Development", id: randomUUID() },
    folder: { id: randomUUID(), path: "/" },
    ...over,
  };
}

export function certificateProfile(over: Partial<CertificateProfile> = {}): CertificateProfile {
  return {
    id: ids.profile,
    projectId: ids.project,
    certificatePolicyId: ids.policy,
    slug: "web",
    enrollmentType: "api",
    issuerType: "ca",
    createdAt: now,
    updatedAt: now,
    caId: ids.ca,
    description: null,
    estConfigId: null,
    apiConfigId: randomUUID(),
    acmeConfigId: null,
    scepConfigId: null,
    externalConfigs: null,
    defaults: null,
    ...over,
  };
}

export function auditEntry(i: number, over: Partial<AuditLogEntry> = {}): AuditLogEntry {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    createdAt: new Date(Date.UTC(2025, 0, 1) - i * 1000).toISOString(),
    updatedAt: now,
    event: { type: "get-secrets", metadata: {} },
    actor: { type: "identity", metadata: {} },
    ipAddress: null,
    userAgent: null,
    userAgentType: null,
    expiresAt: null,
    orgId: randomUUID(),
    projectId: null,
    projectName: null,
    ...over,
  };
}

export function loginToken(accessToken: string, expiresIn = 3600) {
  return { accessToken, expiresIn, accessTokenMaxTTL: 7200, tokenType: "Bearer" as const };
}
