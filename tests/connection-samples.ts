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
  "azure-client-secrets/certificate": { tenantId: "t", clientId: "c", certificateBody: "cert", privateKey: "key" },
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
