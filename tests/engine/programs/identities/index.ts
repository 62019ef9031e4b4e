// A machine identity, its universal auth and a client secret; config changes each piece: the
// identity's name, the secret's description, a trusted IP of the login's access tokens.
import * as pulumi from "@pulumi/pulumi";
import { IdentityAuth, IdentityClientSecret, MachineIdentity } from "secretops-pulumi";

const config = new pulumi.Config();
const trustedIp = config.get("trustedIp");

const identity = new MachineIdentity("ci", {
  name: config.get("identityName") ?? "ci",
  organizationId: config.require("organizationId"),
  role: "member",
});

const login = new IdentityAuth("ci-login", {
  identityId: identity.id,
  method: "universal-auth",
  ...(trustedIp && { accessTokenTrustedIps: [{ ipAddress: trustedIp }] }),
});

const secret = new IdentityClientSecret("ci-secret", {
  identityId: login.identityId,
  description: config.get("secretDescription") ?? "ci",
});

export const identityId = identity.id;
export const clientId = login.clientId;
export const clientSecretId = secret.id;
export const clientSecret = secret.clientSecret;
