// The app: logs in as the stack's identity and reads its secret with the vendor's own client.
// SITE_URL and STACK_OUTPUTS (`pulumi stack output --json --show-secrets`) come from the shell.
import { InfisicalSDK } from "@infisical/sdk";

const o = JSON.parse(process.env.STACK_OUTPUTS);
const sdk = await new InfisicalSDK({ siteUrl: process.env.SITE_URL }).auth().universalAuth.login({
  clientId: o.clientId,
  clientSecret: o.clientSecret,
});
const where = { projectId: o.projectId, environment: o.environment, secretPath: o.secretPath };
const secret = await sdk.secrets().getSecret({ ...where, secretName: "DATABASE_URL" });
console.log(`DATABASE_URL has ${secret.secretValue.length} characters`);
