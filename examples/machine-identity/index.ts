import * as pulumi from "@pulumi/pulumi";
import { IdentityAuth, IdentityClientSecret, MachineIdentity } from "secretops-pulumi";

/**
 * A machine identity for a deploy job: the identity (a member of the organization), its
 * universal-auth login, and a client secret for the job. The job logs in with the client id and
 * the client secret, handed over as stack outputs (`pulumi stack output clientSecret
 * --show-secrets`, or another stack's StackReference); the secret is a secret output, encrypted in
 * state and `[secret]` in previews.
 *
 * The secret has no PATCH at the service: changing its description, use limit or TTL makes a new
 * one and revokes the old one, so rotating it is a change of `description` (a date, say).
 *
 * It targets the local emulator by default, whose organization is the default below. Against your
 * own service, also set:
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 *   pulumi config set organizationId <your organization's id>
 */
const config = new pulumi.Config();
const organizationId = config.get("organizationId") ?? "11111111-1111-4111-8111-111111111111";
const rotation = config.get("secretRotation") ?? "2026-11";

const deployer = new MachineIdentity("deployer", {
  name: `deployer-${pulumi.getStack()}`,
  organizationId,
  role: "member",
  metadata: [{ key: "managed-by", value: "pulumi" }],
});

// The login: a client id (an output) and client secrets, from anywhere (the service's default
// trusted IPs), access tokens of an hour renewable up to a day.
const login = new IdentityAuth("deployer-login", {
  identityId: deployer.id,
  method: "universal-auth",
  accessTokenTTL: 3600,
  accessTokenMaxTTL: 86400,
});

// Made after the login (it names the login's identityId output): a client secret needs universal auth.
const secret = new IdentityClientSecret("deployer-secret", {
  identityId: login.identityId,
  description: `deploy job (${rotation})`,
});

export const identityId = deployer.id;
export const clientId = login.clientId;
/** Secret: `pulumi stack output clientSecret --show-secrets`. */
export const clientSecret = pulumi.secret(secret.clientSecret);
export const clientSecretPrefix = secret.clientSecretPrefix;
