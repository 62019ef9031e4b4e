// Who may read what (issue 47): a project with secrets in dev and prod, a CI identity logging in
// with universal auth, and a custom role that reads secrets in prod under /app/** and nothing else,
// assigned to the identity. Config `devAccess` widens the role to dev; `roleSlug` renames it.
import * as pulumi from "@pulumi/pulumi";
import {
  IdentityAuth,
  IdentityClientSecret,
  MachineIdentity,
  Project,
  ProjectIdentityMembership,
  ProjectRole,
  Secret,
  SecretFolder,
} from "secretops-pulumi";

const config = new pulumi.Config();
const environments = config.getBoolean("devAccess") ? ["prod", "dev"] : ["prod"];

const project = new Project("app", {
  projectName: "Access app",
  slug: config.get("projectSlug") ?? "access-app",
});
const projectId = project.id;

// The same tree in both environments: /app/web/DB_URL and /other/TOKEN.
for (const environment of ["dev", "prod"]) {
  const app = new SecretFolder(`${environment}-app`, { projectId, environment, name: "app" });
  const web = new SecretFolder(`${environment}-web`, { projectId, environment, name: "web", path: app.secretPath });
  const other = new SecretFolder(`${environment}-other`, { projectId, environment, name: "other" });
  new Secret(`${environment}-db-url`, {
    projectId,
    environment,
    secretPath: web.secretPath,
    secretName: "DB_URL",
    secretValue: pulumi.secret(`postgres://${environment}.db.internal/app`),
  });
  new Secret(`${environment}-token`, {
    projectId,
    environment,
    secretPath: other.secretPath,
    secretName: "TOKEN",
    secretValue: pulumi.secret(`${environment}-token-value`),
  });
}

const identity = new MachineIdentity("ci", {
  name: "ci",
  organizationId: config.require("organizationId"),
  role: "no-access",
});
const login = new IdentityAuth("ci-login", { identityId: identity.id, method: "universal-auth" });
const secret = new IdentityClientSecret("ci-secret", { identityId: login.identityId, description: "ci" });

const role = new ProjectRole("ci-reader", {
  projectId,
  slug: config.get("roleSlug") ?? "ci-reader",
  name: "CI reader",
  description: `reads ${environments.join(" and ")} /app/**`,
  permissions: [
    {
      subject: "secrets",
      action: ["read"],
      conditions: {
        environment: environments.length === 1 ? { $eq: "prod" } : { $in: environments },
        secretPath: { $glob: "/app/**" },
      },
    },
    { subject: "secret-folders", action: ["read"], conditions: { environment: { $in: environments } } },
  ],
});

const membership = new ProjectIdentityMembership("ci-member", {
  projectId,
  identityId: identity.id,
  // `memberRole` names the role by a literal slug instead, so the membership does not wait for it.
  roles: [{ role: config.get("memberRole") ?? role.slug }],
});
// A second membership of the same identity: refused at preview, naming both.
if (config.getBoolean("duplicateMembership")) {
  new ProjectIdentityMembership("ci-member-again", { projectId, identityId: identity.id, roles: [{ role: "viewer" }] });
}

// A second identity with a built-in role, and a role nobody holds: a refresh reads each family
// of the project once, whatever the number of objects.
const deployer = new MachineIdentity("deployer", {
  name: "deployer",
  organizationId: config.require("organizationId"),
  role: "no-access",
});
new ProjectIdentityMembership("deployer-member", { projectId, identityId: deployer.id, roles: [{ role: "member" }] });
new ProjectRole("auditor", {
  projectId,
  slug: "auditor",
  name: "Auditor",
  permissions: [{ subject: "audit-logs", action: ["read"] }],
});

export const outProjectId = projectId;
export const identityId = identity.id;
export const clientId = login.clientId;
export const clientSecret = secret.clientSecret;
export const roleId = role.id;
export const membershipId = membership.id;
