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

/**
 * What an app reads, and who it is: a project with a folder /app in dev holding DATABASE_URL, and
 * a machine identity with universal auth and a client secret, a `viewer` of the project. The app
 * (app.mjs) logs in with the stack's outputs through the vendor's own client, `@infisical/sdk`.
 *
 * It targets the local emulator by default, whose organization is the default below. Against your
 * own service, also set:
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 *   pulumi config set organizationId <your organization's id>
 */
const config = new pulumi.Config();
const organizationId = config.get("organizationId") ?? "11111111-1111-4111-8111-111111111111";
const environment = "dev";

const project = new Project("app", {
  projectName: "App reads secrets",
  slug: config.get("projectSlug") ?? `app-reads-secrets-${pulumi.getStack()}`,
});
const projectId = project.id;
const folder = new SecretFolder("app", { projectId, environment, name: "app" });
new Secret("database-url", {
  projectId,
  environment,
  secretPath: folder.secretPath,
  secretName: "DATABASE_URL",
  secretValue: pulumi.secret(config.get("databaseUrl") ?? "postgres://db.internal/app"),
});

const identity = new MachineIdentity("app", {
  name: `app-${pulumi.getStack()}`,
  organizationId,
  role: "no-access",
});
const login = new IdentityAuth("app-login", { identityId: identity.id, method: "universal-auth" });
const secret = new IdentityClientSecret("app-secret", { identityId: login.identityId, description: "the app" });
new ProjectIdentityMembership("app-member", { projectId, identityId: identity.id, roles: [{ role: "viewer" }] });

export { projectId, environment };
export const secretPath = folder.secretPath;
export const clientId = login.clientId;
/** Secret: `pulumi stack output clientSecret --show-secrets`. */
export const clientSecret = pulumi.secret(secret.clientSecret);
