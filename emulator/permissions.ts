import { buildMongoQueryMatcher, createMongoAbility, subject, type MongoAbility, type RawRuleOf } from "@casl/ability";
import { randomUUID } from "node:crypto";
import picomatch from "picomatch";
import { ApiError, notFound } from "./errors";
import type { Store } from "./store";
import type { StoredIdentityMembership, StoredMembershipRole, StoredProjectRole } from "./types";

/**
 * Who may do what in a project, as the service decides it (docs/service-api.md §20): a CASL
 * ability built from the rules of the caller's active membership roles, conditions matched by the
 * service's own matcher (Mongo operators plus `$glob`).
 */

export type ProjectAbility = MongoAbility;
type RawRule = RawRuleOf<ProjectAbility>;

/** Fields a check names (environment, secretPath, secretName, ...), matched against rules' conditions. */
export type SubjectFields = Record<string, unknown>;

const crud = ["read", "create", "edit", "delete"] as const;

/**
 * The built-in roles' rules, subject → actions, from the service's
 * backend/src/ee/services/permission/default-roles.ts (`buildAdminPermissionRules`,
 * `buildMemberPermissionRules`, `buildViewerPermissionRules`, `buildNoAccessProjectPermission`) with
 * the action strings of project-permission.ts, both at 012928dd. Built-in rules have no conditions.
 */
export const builtInProjectRoles = {
  admin: {
    "secret-folders": crud,
    "secret-imports": crud,
    role: crud,
    integrations: crud,
    webhooks: crud,
    "service-tokens": crud,
    settings: crud,
    environments: crud,
    tags: crud,
    "ip-allowlist": crud,
    "pki-alerts": crud,
    "pki-collections": crud,
    "certificate-inventory-views": crud,
    "ssh-certificate-authorities": crud,
    "ssh-certificates": crud,
    "ssh-certificate-templates": crud,
    "ssh-host-groups": crud,
    "pam-folders": crud,
    "pam-resources": crud,
    "pam-domains": crud,
    "mcp-servers": crud,
    "mcp-activity-logs": crud,
    "audit-logs": ["read"],
    "certificate-authorities": [...crud, "issue-ca-certificate", "sign-intermediate"],
    "certificate-templates": [...crud, "issue-cert", "list-certs"],
    "certificate-policies": crud,
    "secret-approval": crud,
    certificates: [...crud, "read-private-key", "import"],
    "certificate-profiles": [
      ...crud,
      "issue-cert",
      "reveal-acme-eab-secret",
      "rotate-acme-eab-secret",
      "manage-application-attachments",
    ],
    "certificate-application": ["read", "list", "create"],
    commits: ["read", "perform-rollback"],
    "ssh-hosts": [...crud, "issue-host-cert"],
    "pki-subscribers": [...crud, "issue-cert", "list-certs"],
    member: [...crud, "grant-privileges", "assign-role", "assign-additional-privileges", "assume-privileges"],
    groups: [...crud, "grant-privileges", "assign-role"],
    identity: [
      ...crud,
      "grant-privileges",
      "assign-role",
      "assign-additional-privileges",
      "assume-privileges",
      "get-token",
      "create-token",
      "delete-token",
      "revoke-auth",
    ],
    secrets: ["describeSecret", "read", "readValue", "create", "edit", "delete"],
    "dynamic-secrets": [
      "read-root-credential",
      "edit-root-credential",
      "create-root-credential",
      "delete-root-credential",
      "lease",
    ],
    workspace: ["edit", "delete"],
    "secret-rollback": ["read", "create"],
    kms: ["edit"],
    cmek: [...crud, "encrypt", "decrypt", "sign", "verify", "rotate", "export-private-key"],
    "secret-syncs": [...crud, "sync-secrets", "import-secrets", "remove-secrets"],
    "pki-syncs": [...crud, "sync-certificates", "import-certificates", "remove-certificates"],
    "pki-discovery": [...crud, "run-scan"],
    "pki-certificate-installations": ["read", "edit", "delete"],
    "code-signers": ["read", "create"],
    kmip: ["create-clients", "update-clients", "delete-clients", "read-clients", "generate-client-certificates"],
    "secret-rotation": [...crud, "read-generated-credentials", "rotate-secrets"],
    "secret-scanning-data-sources": [
      "create-data-sources",
      "edit-data-sources",
      "delete-data-sources",
      "read-data-sources",
      "trigger-data-source-scans",
      "read-data-source-scans",
      "read-data-source-resources",
    ],
    "secret-scanning-findings": ["read-findings", "update-findings"],
    "secret-scanning-configs": ["read-configs", "update-configs"],
    "secret-event-subscriptions": [
      "subscribe-to-creation-events",
      "subscribe-to-deletion-events",
      "subscribe-to-update-events",
      "subscribe-to-import-mutation-events",
    ],
    "app-connections": [
      "create-app-connections",
      "edit-app-connections",
      "delete-app-connections",
      "read-app-connections",
      "connect-app-connections",
      "rotate-credentials",
    ],
    "hsm-connectors": [
      "read-hsm-connectors",
      "create-hsm-connectors",
      "edit-hsm-connectors",
      "delete-hsm-connectors",
      "test-hsm-connectors",
      "attach-hsm-connectors",
    ],
    "honey-tokens": ["read", "read-credentials", "create", "edit", "reset", "revoke"],
    "pam-accounts": [...crud, "access", "trigger-rotation", "read-credentials"],
    "pam-sessions": ["read", "terminate"],
    "pam-account-policies": crud,
    "pam-discovery": [...crud, "run-scan"],
    "pam-insights": ["read"],
    "mcp-endpoints": [...crud, "connect"],
    "approval-requests": ["read", "create"],
    "approval-request-grants": ["read", "revoke"],
    "secret-approval-request": ["read"],
    "project-grant": ["create-grant", "revoke-grant"],
    insights: ["read"],
  },
  member: {
    secrets: ["describeSecret", "read", "readValue", "edit", "create", "delete"],
    "secret-folders": crud,
    "dynamic-secrets": [
      "read-root-credential",
      "edit-root-credential",
      "create-root-credential",
      "delete-root-credential",
      "lease",
    ],
    "secret-imports": crud,
    commits: ["read", "perform-rollback"],
    "secret-approval": ["read"],
    "secret-rotation": ["read"],
    "secret-rollback": ["read", "create"],
    member: ["read", "create"],
    groups: ["read"],
    integrations: crud,
    webhooks: crud,
    identity: crud,
    "service-tokens": crud,
    "honey-tokens": ["read"],
    settings: crud,
    environments: crud,
    tags: crud,
    role: ["read"],
    "audit-logs": ["read"],
    "ip-allowlist": ["read"],
    "certificate-authorities": ["read"],
    "certificate-policies": ["read"],
    "certificate-profiles": ["read"],
    "code-signers": ["read"],
    "certificate-application": ["read", "list"],
    "ssh-certificates": ["read", "create"],
    "ssh-certificate-templates": ["read"],
    "ssh-hosts": ["read"],
    cmek: [...crud, "encrypt", "decrypt", "sign", "verify", "rotate"],
    "secret-syncs": [...crud, "sync-secrets", "import-secrets", "remove-secrets"],
    "secret-scanning-data-sources": [
      "read-data-sources",
      "trigger-data-source-scans",
      "read-data-source-scans",
      "read-data-source-resources",
    ],
    "secret-scanning-findings": ["read-findings", "update-findings"],
    "secret-scanning-configs": ["read-configs"],
    "secret-event-subscriptions": [
      "subscribe-to-creation-events",
      "subscribe-to-deletion-events",
      "subscribe-to-update-events",
      "subscribe-to-import-mutation-events",
    ],
    "app-connections": ["connect-app-connections"],
    "hsm-connectors": ["read-hsm-connectors", "test-hsm-connectors"],
    "pam-folders": ["read"],
    "pam-resources": ["read"],
    "pam-domains": ["read"],
    "pam-accounts": ["access", "read"],
    "pam-account-policies": ["read"],
    "pam-discovery": ["read"],
    "pam-insights": ["read"],
    "mcp-endpoints": ["read"],
    "mcp-servers": ["read"],
    "mcp-activity-logs": ["read"],
    "approval-requests": ["create"],
  },
  viewer: {
    secrets: ["describeSecret", "readValue"],
    "secret-folders": ["read"],
    "dynamic-secrets": ["read-root-credential"],
    "secret-imports": ["read"],
    "secret-approval": ["read"],
    "secret-rollback": ["read"],
    "secret-rotation": ["read"],
    member: ["read"],
    groups: ["read"],
    role: ["read"],
    integrations: ["read"],
    webhooks: ["read"],
    identity: ["read"],
    "service-tokens": ["read"],
    "honey-tokens": ["read"],
    settings: ["read"],
    environments: ["read"],
    tags: ["read"],
    "audit-logs": ["read"],
    "ip-allowlist": ["read"],
    "certificate-authorities": ["read"],
    certificates: ["read"],
    "certificate-inventory-views": ["read"],
    "certificate-templates": ["read"],
    "certificate-policies": ["read"],
    cmek: ["read"],
    "ssh-certificates": ["read"],
    "ssh-certificate-templates": ["read"],
    "secret-syncs": ["read"],
    "pki-syncs": ["read"],
    "certificate-application": ["read", "list"],
    "pki-discovery": ["read"],
    "pki-certificate-installations": ["read"],
    "code-signers": ["read"],
    commits: ["read"],
    "secret-scanning-data-sources": ["read-data-sources", "read-data-source-scans", "read-data-source-resources"],
    "secret-scanning-findings": ["read-findings"],
    "secret-scanning-configs": ["read-configs"],
    "secret-event-subscriptions": [
      "subscribe-to-creation-events",
      "subscribe-to-deletion-events",
      "subscribe-to-update-events",
      "subscribe-to-import-mutation-events",
    ],
    "pam-folders": ["read"],
    "pam-resources": ["read"],
    "pam-domains": ["read"],
    "pam-accounts": ["read"],
    "pam-account-policies": ["read"],
    "pam-discovery": ["read"],
    "pam-insights": ["read"],
    "mcp-endpoints": ["read"],
    "mcp-servers": ["read"],
    "mcp-activity-logs": ["read"],
  },
  "no-access": {},
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type BuiltInProjectRole = keyof typeof builtInProjectRoles;

export const isBuiltInProjectRole = (slug: string): slug is BuiltInProjectRole =>
  Object.hasOwn(builtInProjectRoles, slug);

/** A built-in role's rules, one per subject, as the service's `AbilityBuilder.can(actions, subject)` makes them. */
export function builtInRoleRules(role: BuiltInProjectRole): { subject: string; action: string[] }[] {
  return Object.entries(builtInProjectRoles[role] as Record<string, readonly string[]>).map(([s, actions]) => ({
    subject: s,
    action: [...actions],
  }));
}

/**
 * A custom role's rules: its v2 permissions (`{subject, action, conditions?, inverted?}`) are CASL's
 * raw rules as they are (the service stores them packed and unpacks them, `unpackRules` in
 * permission-service.ts).
 */
export function customRoleRules(role: Pick<StoredProjectRole, "permissions">): RawRule[] {
  return role.permissions.flatMap((p): RawRule[] => {
    if (typeof p !== "object" || p === null) return [];
    const { subject: s, action, conditions, inverted } = p as Record<string, unknown>;
    if (typeof s !== "string" || (typeof action !== "string" && !Array.isArray(action))) return [];
    return [
      {
        subject: s,
        action: action as string | string[],
        ...(conditions !== undefined && conditions !== null && { conditions: conditions as RawRule["conditions"] }),
        ...(inverted === true && { inverted: true }),
      },
    ];
  });
}

/**
 * Whether a role of a membership counts now. The service keeps a temporary role while now is
 * before its `temporaryAccessEndTime` (permission-service.ts, `getProjectPermission`); it does not
 * look at the start time. One without an end time never counts.
 */
export function isRoleActive(r: StoredMembershipRole, now: number = Date.now()): boolean {
  if (!r.isTemporary) return true;
  return r.temporaryAccessEndTime !== null && now < Date.parse(r.temporaryAccessEndTime);
}

/** The rules of a membership's active roles; an unknown role is the service's 404. */
export function membershipRules(store: Store, m: StoredIdentityMembership, now: number = Date.now()): RawRule[] {
  return m.roles
    .filter((r) => isRoleActive(r, now))
    .flatMap((r): RawRule[] => {
      if (r.role === "custom") {
        const custom = r.customRoleId === null ? undefined : store.projectRoles.get(r.customRoleId);
        // A role in use cannot be deleted at the service; one gone here grants nothing.
        return custom ? customRoleRules(custom) : [];
      }
      if (isBuiltInProjectRole(r.role)) return builtInRoleRules(r.role);
      throw notFound(`Project role '${r.role}' not found`);
    });
}

/**
 * The service's `conditionsMatcher` (backend/src/lib/casl/index.ts): CASL's Mongo matcher plus
 * `$glob`, a picomatch match with `strictSlashes: false`; an empty pattern matches nothing.
 */
export const conditionsMatcher = buildMongoQueryMatcher(
  {
    $glob: {
      type: "field",
      validate(instruction, value) {
        if (typeof value !== "string") throw new Error(`"${instruction.name}" expects value to be a string`);
      },
    },
  },
  {
    glob: (node, object, context) => {
      const value = context.get(object, node.field) as string;
      const pattern = node.value as string;
      if (pattern === "") return false;
      return picomatch.isMatch(value, pattern, { strictSlashes: false });
    },
  },
);

export function abilityOf(rules: RawRule[]): ProjectAbility {
  return createMongoAbility(rules, { conditionsMatcher });
}

/** Handlebars' `escapeExpression`: what `{{...}}` does to a value it puts in. */
const htmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#x27;",
  "`": "&#x60;",
  "=": "&#x3D;",
};
const escapeExpression = (v: string) => v.replace(/[&<>"'`=]/g, (c) => htmlEscapes[c]!);

/**
 * The service templates the rules' JSON with handlebars before it builds the ability
 * (`getProjectPermission`): `{{identity.id}}`, `{{identity.username}}` (the identity's name) and
 * `{{identity.metadata.<key>}}`; a metadata key the identity lacks stays as written
 * (`escapeHandlebarsMissingDict`). Only these plain references are served here: `{{identity.auth.*}}`
 * (the login's claims) and handlebars' helpers are not.
 */
export function templateRules(
  rules: RawRule[],
  identity: { id: string; name: string; metadata: readonly { key: string; value: string }[] },
): RawRule[] {
  const json = JSON.stringify(rules);
  if (!json.includes("{{")) return rules;
  const metadata = new Map(identity.metadata.map((m) => [m.key, m.value]));
  const out = json.replace(
    /\{\{\s*identity\.(id|username|metadata\.([^\s}]+))\s*\}\}/g,
    (whole, what: string, key?: string) => {
      if (what === "id") return escapeExpression(identity.id);
      if (what === "username") return escapeExpression(identity.name);
      const value = key === undefined ? undefined : metadata.get(key);
      return value === undefined ? whole : escapeExpression(value);
    },
  );
  return JSON.parse(out) as RawRule[];
}

/** The identity's ability in the project; undefined when it is not a member. */
export function projectAbility(
  store: Store,
  identityId: string,
  projectId: string,
  now: number = Date.now(),
): ProjectAbility | undefined {
  const m = store.identityMembership(identityId, projectId);
  if (!m) return undefined;
  const rules = membershipRules(store, m, now);
  const identity = store.identities.get(identityId);
  return abilityOf(identity ? templateRules(rules, identity) : rules);
}

const subjectOf = (subjectType: string, fields?: SubjectFields) => {
  if (!fields) return subjectType;
  const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return subject(subjectType, present);
};

export function can(ability: ProjectAbility, action: string, subjectType: string, fields?: SubjectFields): boolean {
  return ability.can(action, subjectOf(subjectType, fields));
}

/**
 * CASL's ForbiddenError as the service's error handler renders it
 * (backend/src/server/plugins/error-handler.ts): `PermissionDenied`, and in `details` the caller's
 * rules for the action and subject (`ability.rulesFor`), conditions included.
 */
export function forbiddenError(ability: ProjectAbility, action: string, subjectType: string): ApiError {
  const details = ability.rulesFor(action, subjectType).map((r) => ({
    action: r.action,
    inverted: r.inverted,
    subject: r.subject,
    conditions: r.conditions,
  }));
  return new ApiError(403, "PermissionDenied", `You are not allowed to ${action} on ${subjectType}`, details);
}

/** `ForbiddenError.from(permission).throwUnlessCan(action, subject(subjectType, fields))`. */
export function throwUnlessCan(
  ability: ProjectAbility,
  action: string,
  subjectType: string,
  fields?: SubjectFields,
): void {
  if (!can(ability, action, subjectType, fields)) throw forbiddenError(ability, action, subjectType);
}

/** The secret actions that the legacy `read` (describe and read value) also grants. */
export type SecretReadAction = "describeSecret" | "readValue";

/**
 * The service's `hasSecretReadValueOrDescribePermission` (ee/services/permission/permission-fns.ts):
 * the new action or the legacy `read`.
 */
export function canReadSecret(ability: ProjectAbility, action: SecretReadAction, fields?: SubjectFields): boolean {
  return can(ability, action, "secrets", fields) || can(ability, "read", "secrets", fields);
}

/**
 * The service's `throwIfMissingSecretReadValueOrDescribePermission` (permission-fns.ts): `read`
 * first; failing that, the new action, whose refusal names it.
 */
export function throwIfMissingSecretRead(ability: ProjectAbility, action: SecretReadAction, fields?: SubjectFields) {
  if (can(ability, "read", "secrets", fields)) return;
  throwUnlessCan(ability, action, "secrets", fields);
}

/**
 * A membership with one permanent role, built-in (its slug) or a project's custom role: a project's
 * creator as its `admin` (the service's `createProject` adds the creating identity with the admin
 * role, services/project/project-service.ts), and the fixtures' and older data files' `projectIds`.
 */
export function permanentMembership(
  identityId: string,
  projectId: string,
  role: BuiltInProjectRole | Pick<StoredProjectRole, "id">,
  now: string,
): StoredIdentityMembership {
  return {
    id: randomUUID(),
    projectId,
    identityId,
    roles: [
      {
        id: randomUUID(),
        role: typeof role === "string" ? role : "custom",
        customRoleId: typeof role === "string" ? null : role.id,
        isTemporary: false,
        temporaryMode: null,
        temporaryRange: null,
        temporaryAccessStartTime: null,
        temporaryAccessEndTime: null,
        createdAt: now,
        updatedAt: now,
      },
    ],
    createdAt: now,
    updatedAt: now,
  };
}

/** Each identity's legacy `projectIds` as admin memberships (fixtures, older data files). */
export function legacyMemberships(
  identities: readonly { id: string; projectIds?: readonly string[] }[],
  now: string,
): StoredIdentityMembership[] {
  return identities.flatMap((i) => (i.projectIds ?? []).map((p) => permanentMembership(i.id, p, "admin", now)));
}
