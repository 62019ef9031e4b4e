// What the official clients read (issue 48): a project, a folder /app in dev with two secrets, and a
// machine identity with universal auth and a client secret, a member of the project, so the client
// logs in as an identity this program made.
import * as pulumi from "@pulumi/pulumi";
import {
  IdentityAuth,
  IdentityClientSecret,
  MachineIdentity,
  Project,
  ProjectIdentityMembership,
  Secret,
  SecretFolder,
} from "secretops-pulumi";

const config = new pulumi.Config();
const environment = "dev";

const project = new Project("app", {
  projectName: "Clients app",
  slug: config.get("projectSlug") ?? "clients-app",
});
const projectId = project.id;

// forceDelete: the clients write secrets the program does not declare into /app; destroy removes them too.
const app = new SecretFolder("app", { projectId, environment, name: "app", forceDelete: true });
const dbUrl = new Secret("db-url", {
  projectId,
  environment,
  secretPath: app.secretPath,
  secretName: "DB_URL",
  secretValue: pulumi.secret("postgres://db.internal/app"),
});
const apiKey = new Secret("api-key", {
  projectId,
  environment,
  secretPath: app.secretPath,
  secretName: "API_KEY",
  secretValue: pulumi.secret(config.get("apiKey") ?? "key-one"),
});

const identity = new MachineIdentity("reader", {
  name: config.get("identityName") ?? "clients-reader",
  organizationId: config.require("organizationId"),
  role: "no-access",
});
const login = new IdentityAuth("reader-login", { identityId: identity.id, method: "universal-auth" });
const secret = new IdentityClientSecret("reader-secret", { identityId: login.identityId, description: "clients" });
new ProjectIdentityMembership("reader-member", { projectId, identityId: identity.id, roles: [{ role: "member" }] });

export { projectId, environment };
export const secretPath = app.secretPath;
export const secretIds = [dbUrl.id, apiKey.id];
export const clientId = login.clientId;
export const clientSecret = pulumi.secret(secret.clientSecret);
