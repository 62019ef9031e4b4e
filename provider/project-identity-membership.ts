import { z } from "zod";
import type { IdentityMembershipRecord, SecretOpsClient } from "../sdk";
import { SecretOpsApiError } from "../sdk/errors";
import {
  IdentityMembershipCreateSchema,
  IdentityMembershipUpdateSchema,
  type MembershipRoleRecord,
  identityMembershipRules,
  nonEmpty,
} from "../sdk/schemas";
import { formatIssue } from "../sdk/schemas/issues";
import { type Exclusive, commonOptions, defineResource } from "./definition";
import { type ArgsOf } from "./inputs";
import { isNotFound } from "./not-found";
import { uniqueIn } from "./program-keys";
import { familyReads } from "./shared-reads";
import { type Plain, UNKNOWN, isPlainObject } from "./values";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /**
   * Take over the identity's membership of the project when it exists, instead of failing (an
   * identity that made the project is its admin already). Default false.
   */
  adoptExisting: z.boolean().default(false),
});

const args = IdentityMembershipCreateSchema.extend({
  /** The project the identity is a member of. Changing it replaces the membership. */
  projectId: nonEmpty,
  /** The machine identity (its `id`). Changing it replaces the membership. */
  identityId: nonEmpty,
});
type Args = z.output<typeof args>;

/** The args of an identity's membership of a project: its roles, the project, the identity, and the options'. */
export type ProjectIdentityMembershipArgs = ArgsOf<z.input<typeof args>> & ArgsOf<z.input<typeof options>>;

type Remote = IdentityMembershipRecord & { projectId: string };

/** One role of a membership in the one spelling state and diff use (`normalRoles`). */
export interface NormalRole {
  role: string;
  isTemporary?: true;
  temporaryMode?: string;
  temporaryRange?: string;
  temporaryAccessStartTime?: string;
}

/** An ISO date-time as the service answers it (`toISOString`): the program's `...T00:00:00Z` is that time too. */
function isoTime(value: unknown): unknown {
  if (typeof value !== "string" || value === UNKNOWN) return value;
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}

const byJson = (a: unknown, b: unknown) => {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * A role list in one spelling, the program's or the service's: a permanent role is its slug only
 * (`isTemporary: false` left out), a temporary one its mode, range and start time (as the service
 * answers it); a custom role by its slug (the service answers `role: "custom"` with
 * `customRoleSlug`). The service holds the roles as a set, so they are sorted.
 */
export function normalRoles(roles: readonly unknown[]): NormalRole[] {
  return roles
    .map((r: unknown): NormalRole => {
      if (!isPlainObject(r)) return r as NormalRole;
      const role = r.role === "custom" && typeof r.customRoleSlug === "string" ? r.customRoleSlug : String(r.role);
      if (r.isTemporary !== true) return { role };
      return {
        role,
        isTemporary: true,
        temporaryMode: r.temporaryMode as string,
        temporaryRange: r.temporaryRange as string,
        temporaryAccessStartTime: isoTime(r.temporaryAccessStartTime) as string,
      };
    })
    .sort(byJson);
}

/** A project's identity memberships with their roles, in one call, shared by a refresh's reads. */
const membershipReads = familyReads<Remote>(async (client, projectId) =>
  (await client.identityMemberships.list(projectId)).map((m) => ({ ...m, projectId: m.projectId ?? projectId })),
);

/** The service's words for a membership it does not have (membership-identity-service.ts: PATCH and delete). */
const NO_MEMBERSHIP = "doesn't have membership";

/** Gone: the membership, its identity or its project (404), or the service's 400 for no membership. */
function isGone(e: unknown): boolean {
  if (isNotFound(e)) return true;
  return e instanceof SecretOpsApiError && e.status === 400 && e.message.includes(NO_MEMBERSHIP);
}

/**
 * A write of the role list: the service's refusals of a role (the plan gate on a custom role,
 * `Failed to assign custom role … plan RBAC restriction …`; a custom role the project lacks) name
 * no field, so the error names `roles`.
 */
async function writingRoles<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (
      e instanceof SecretOpsApiError &&
      (e.status === 400 || e.status === 404) &&
      /plan RBAC restriction|custom roles? not found/i.test(e.message)
    )
      throw new Error(formatIssue({ path: "roles", message: e.message }));
    throw e;
  }
}

/** The identity's membership of the project; undefined when gone (or another membership holds its place, `id` given). */
async function readMembership(
  client: SecretOpsClient,
  projectId: string,
  identityId: string,
  id?: string,
): Promise<Remote | undefined> {
  try {
    const m = await client.identityMemberships.get(projectId, identityId);
    if (id !== undefined && m.id !== id) return undefined;
    return { ...m, projectId: m.projectId ?? projectId };
  } catch (e) {
    if (isGone(e)) return undefined;
    throw e;
  }
}

/** One membership per identity and project: two in one program are refused at preview, naming both. */
const oneMembership: Exclusive = {
  key: uniqueIn("ProjectIdentityMembership", "identityId", ["projectId"], "").key,
  conflict: (resource, holder) => ({
    property: "",
    reason: formatIssue({
      path: "identityId",
      message:
        `ProjectIdentityMembership "${resource}" and ProjectIdentityMembership "${holder}" of this program both ` +
        `make this identity a member of this project, which holds one membership per identity; give all its ` +
        `roles in one of them`,
    }),
  }),
};

/**
 * A machine identity's membership of a project, with its roles: built-in (`admin`, `member`,
 * `viewer`, `no-access`) or custom (a `ProjectRole`'s slug), permanent or temporary (`relative`
 * mode, a range such as `"1h"` and a start time); at least one permanent. A change of roles is one
 * PATCH of the whole list (same id); a change of `projectId` or `identityId` replaces it. The
 * service holds one membership per identity and project: two in one program are refused at
 * preview, naming both. A refresh lists the project's memberships once for every membership; one
 * whose identity or project is gone is gone, and its delete is done. Assigning a custom role needs
 * the RBAC feature of a licensed plan. `pulumi import` takes `<projectId>/<identityId>`.
 */
export const projectIdentityMembershipDefinition = defineResource<Remote, Args, z.output<typeof options>>()({
  type: "ProjectIdentityMembership",
  importPrefix: "projectId",
  importKey: "identityId",
  schemas: () => ({
    args,
    update: IdentityMembershipUpdateSchema,
    rules: (a: Plain) => identityMembershipRules(a as { roles: { isTemporary?: boolean }[] }),
  }),
  options,
  // Another identity or project holds no place of this one: the new one is made before the old one goes.
  deleteBeforeReplace: false,
  reported: {
    projectId: (m) => m.projectId,
    identityId: (m) => m.identityId,
    roles: (m) => normalRoles(m.roles),
  },
  computed: {
    /** The identity's name, as the service reports it. */
    identityName: (m) => m.identity?.name,
    /** When each temporary role ends, by its slug (start time plus range, as the service computes it). */
    temporaryAccessEndTimes: (m) => endTimes(m.roles),
    createdAt: (m) => m.createdAt,
    updatedAt: (m) => m.updatedAt,
  },
  canonical: (a) => ({ ...a, roles: normalRoles(a.roles) as Args["roles"] }),
  exclusive: oneMembership,
  listed: { scopeOf: (outs) => outs.projectId, reads: membershipReads },

  async create(client, { projectId, identityId, roles }) {
    const m = await writingRoles(() => client.identityMemberships.create(projectId, identityId, { roles }));
    return { ...m, projectId: m.projectId ?? projectId };
  },
  find: (client, a) => readMembership(client, a.projectId, a.identityId),
  read: (client, id, outs) =>
    typeof outs.identityId === "string"
      ? readMembership(client, outs.projectId, outs.identityId, id)
      : // An import: the id is the identity's.
        readMembership(client, outs.projectId, id),
  async update(client, _id, patch, outs) {
    const roles = patch.roles ?? outs.roles;
    const m = await writingRoles(() => client.identityMemberships.update(outs.projectId, outs.identityId, { roles }));
    return { ...m, projectId: m.projectId ?? outs.projectId };
  },
  async delete(client, _id, outs) {
    try {
      await client.identityMemberships.delete(outs.projectId, outs.identityId);
    } catch (e) {
      // Gone with its identity or project, or removed elsewhere: what delete wants.
      if (!isGone(e)) throw e;
    }
  },
});

/** Each temporary role's end, by its slug; undefined without one. */
function endTimes(roles: readonly MembershipRoleRecord[]): Record<string, string> | undefined {
  const ends = roles
    .filter((r) => r.isTemporary && r.temporaryAccessEndTime)
    .map((r) => [r.role === "custom" ? (r.customRoleSlug ?? r.role) : r.role, String(r.temporaryAccessEndTime)]);
  return ends.length ? Object.fromEntries(ends) : undefined;
}
