import { randomBytes, randomUUID } from "node:crypto";
import type { z } from "zod";
import { appConnectionKinds } from "../sdk/schemas";

/**
 * Valid credentials of the methods other than a kind's example (whose credentials make the
 * fixture connection): the fields each method's schema in the kind's row requires.
 */
const azureClientSecret = {
  clientId: "0f0f0f0f-0000-4000-8000-000000000001",
  clientSecret: "client-secret-value",
  tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
};
export const otherMethodCredentials: Record<string, Record<string, unknown>> = {
  "azure-client-secrets/client-secret": azureClientSecret,
  "azure-client-secrets/certificate": {
    tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
    clientId: "0f0f0f0f-0000-4000-8000-000000000001",
    certificateBody: "cert",
    privateKey: "key",
  },
  "azure-app-configuration/client-secret": azureClientSecret,
  "azure-key-vault/client-secret": azureClientSecret,
  "azure-certificate/client-secret": azureClientSecret,
  "azure-devops/client-secret": {
    ...azureClientSecret,
    orgName: "org",
    clientSecretKeyId: "0f0f0f0f-0000-4000-8000-000000000003",
  },
  "azure-devops/access-token": { accessToken: "emulator-devops-token", orgName: "org" },
  "github/github-app": { code: "emulator-code", installationId: "1234" },
  "github/pat": { personalAccessToken: "emulator-pat" },
  "aws/assume-role": { roleArn: "arn:aws:iam::123456789012:role/emulator" },
  "hashicorp-vault/app-role": {
    instanceUrl: "https://vault.example.com",
    roleId: "role",
    secretId: "emulator-secret-id",
  },
  "heroku/oauth": { code: "emulator-code" },
  "gitlab/oauth": { refreshToken: "emulator-refresh-token" },
  "railway/project-token": { apiToken: "emulator-project-token" },
  "railway/team-token": { apiToken: "emulator-team-token" },
  "ssh/ssh-key": {
    host: "ssh.example.com",
    port: 22,
    username: "root",
    privateKey: "emulator-private-key",
    passphrase: "emulator-passphrase",
  },
  "datadog/token": { url: "https://api.datadoghq.com", token: "emulator-datadog-token" },
  "gitea/oauth": { code: "emulator-gitea-code", instanceUrl: "https://gitea.example.com" },
  "nutanix-prism-central/api-key": {
    hostname: "prism.emulator.local",
    port: 9440,
    apiKey: "0123456789abcdef0123456789abcdef",
    sslRejectUnauthorized: true,
  },
};

/**
 * A canary for a secret credential field, in a form the field's schema accepts: as is, after the
 * sample's value (a required prefix), over the end of the sample's value (a fixed length, such as
 * Okta's `00` and 40 characters), as an email or a URL, or (a UUID field) a fresh UUID, or (a
 * hexadecimal key, such as Nutanix Prism Central's API key) 32 fresh lowercase hex digits.
 */
export function credentialCanaryValue(
  app: string,
  method: string,
  field: string,
  plain: string,
  sample?: unknown,
): string {
  const kinds = appConnectionKinds as unknown as Record<
    string,
    { methods: Record<string, { credentials: z.ZodObject }> }
  >;
  const schema = kinds[app]!.methods[method]!.credentials.shape[field] as z.ZodType;
  const prefix = typeof sample === "string" ? sample : "";
  const forms = [plain, plain.replace(/[^A-Za-z0-9-]/g, "-")].flatMap((c) => [
    c,
    `${prefix}${c}`,
    ...(prefix.length > c.length ? [`${prefix.slice(0, prefix.length - c.length)}${c}`] : []),
    `${c}@canary.example.com`,
    `https://canary.example.com/${c}`,
  ]);
  for (const value of [...forms, randomUUID(), randomBytes(16).toString("hex")]) {
    if (schema.safeParse(value).success) return value;
  }
  throw new Error(`no canary fits ${app}/${method} credentials.${field}`);
}
