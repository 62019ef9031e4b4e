import { z } from "zod";
import { dateTime, strictObject } from "./common";
import type { Issue } from "./issues";

/**
 * An identity's membership of a project and its roles (docs/service-api.md §19; the service's
 * `server/routes/v1/identity-project-router.ts`, at
 * `/api/v1/projects/:projectId/identity-memberships/:identityId`). A role is a built-in slug or a
 * custom role's slug; the service answers a custom role as `role: "custom"` with its id and slug.
 */

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  y: 31_557_600_000,
};
const UNIT_OF: Record<string, keyof typeof UNITS> = {
  milliseconds: "ms", millisecond: "ms", msecs: "ms", msec: "ms", ms: "ms",
  seconds: "s", second: "s", secs: "s", sec: "s", s: "s",
  minutes: "m", minute: "m", mins: "m", min: "m", m: "m",
  hours: "h", hour: "h", hrs: "h", hr: "h", h: "h",
  days: "d", day: "d", d: "d",
  weeks: "w", week: "w", w: "w",
  years: "y", year: "y", yrs: "y", yr: "y", y: "y",
}; // prettier-ignore

/**
 * Milliseconds of an `ms`-style duration ("1h", "30m", "2 days", "500"), as the service's
 * `@app/lib/ms` reads it (a wrapper of the `ms` package: its grammar, years of 365.25 days, at
 * most 100 characters); NaN for anything else.
 */
export function msDuration(value: string): number {
  const m = /^(-?(?:\d+)?\.?\d+) *([a-z]+)?$/i.exec(value.trim());
  if (!m || value.length > 100) return NaN;
  const unit = m[2] === undefined ? "ms" : UNIT_OF[m[2].toLowerCase()];
  return unit === undefined ? NaN : Number(m[1]) * UNITS[unit]!;
}

/** The service's words for a range that is not a positive duration. */
export const TEMPORARY_RANGE_MESSAGE = "Temporary range must be a positive number";

const roleName = z.string().trim().min(1, { error: "must not be empty" });

/** A permanent role. */
const PermanentRoleSchema = strictObject({
  /** A built-in role's slug (`admin`, `member`, `viewer`, `no-access`) or a custom role's slug of the project. */
  role: roleName,
  isTemporary: z.literal(false).optional(),
});
/** A temporary role: active from its start time for its range. */
const TemporaryRoleSchema = strictObject({
  role: roleName,
  isTemporary: z.literal(true),
  /** `relative` (the only mode the service has): the range counts from the start time. */
  temporaryMode: z.literal("relative", { error: 'must be "relative"' }),
  /** How long the role lasts, `ms`-style ("1h", "7d"). */
  temporaryRange: z.string().refine((v) => msDuration(v) > 0, { error: TEMPORARY_RANGE_MESSAGE }),
  /** When the role starts, an ISO date-time. */
  temporaryAccessStartTime: z.iso.datetime({ error: "must be an ISO date-time (e.g. 2026-01-01T00:00:00Z)" }),
});

/** One role of a membership. */
export const MembershipRoleSchema = z.union([PermanentRoleSchema, TemporaryRoleSchema]);
export type MembershipRole = z.input<typeof MembershipRoleSchema>;

const rolesField = z.array(MembershipRoleSchema).min(1, { error: "must have at least 1 role" });

/**
 * The service's rule beyond the body schema (membership-identity-service.ts, a 400 after the
 * schema): at least one of the roles is permanent.
 */
export function identityMembershipRules(body: { roles: { isTemporary?: boolean }[] }): Issue[] {
  return body.roles.length > 0 && body.roles.every((r) => r.isTemporary)
    ? [{ path: "roles", message: "Identity must have at least one permanent role" }]
    : [];
}

/** POST /api/v1/projects/{projectId}/identity-memberships/{identityId} body. */
export const IdentityMembershipCreateSchema = strictObject({
  /** The identity's roles in the project, at least one, and at least one of them permanent. */
  roles: rolesField,
});
export type IdentityMembershipCreate = z.input<typeof IdentityMembershipCreateSchema>;

/** PATCH /api/v1/projects/{projectId}/identity-memberships/{identityId} body: the whole role list, which replaces the stored one. */
export const IdentityMembershipUpdateSchema = strictObject({ roles: rolesField });
export type IdentityMembershipUpdate = z.input<typeof IdentityMembershipUpdateSchema>;

/** One role of a membership as the service answers it. */
export const MembershipRoleRecordSchema = z.object({
  id: z.string(),
  role: z.string(),
  customRoleId: z.string().nullish(),
  customRoleName: z.string().nullish(),
  customRoleSlug: z.string().nullish(),
  isTemporary: z.boolean(),
  temporaryMode: z.string().nullish(),
  temporaryRange: z.string().nullish(),
  temporaryAccessStartTime: dateTime.nullish(),
  temporaryAccessEndTime: dateTime.nullish(),
});
export type MembershipRoleRecord = z.output<typeof MembershipRoleRecordSchema>;

/**
 * A membership as the service's GET and list answer it, with its roles and identity; the create and
 * delete answers have no roles (read as `[]`).
 */
export const IdentityMembershipRecordSchema = z.object({
  id: z.string().min(1),
  identityId: z.string(),
  projectId: z.string().optional(),
  roles: z.array(MembershipRoleRecordSchema).default([]),
  identity: z.object({ id: z.string(), name: z.string(), authMethods: z.array(z.string()).optional() }).optional(),
  project: z.object({ id: z.string(), name: z.string() }).optional(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type IdentityMembershipRecord = z.output<typeof IdentityMembershipRecordSchema>;

export const ProjectIdentityMembershipEnvelope = z.object({ identityMembership: IdentityMembershipRecordSchema });
export const ProjectIdentityMembershipListEnvelope = z.object({
  identityMemberships: z.array(IdentityMembershipRecordSchema),
  totalCount: z.number().int().optional(),
});
/** The PATCH answer: the new roles only. */
export const ProjectIdentityMembershipRolesEnvelope = z.object({
  roles: z.array(MembershipRoleRecordSchema.extend({ projectMembershipId: z.string().optional() })),
});
export const ProjectIdentityMembershipsParams = z.object({ projectId: z.string().min(1) });
export const ProjectIdentityMembershipParams = z.object({
  projectId: z.string().min(1),
  identityId: z.string().min(1),
});
export const ProjectIdentityMembershipListQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(20000, { error: "must be at most 20000" }).default(100),
  search: z.string().optional(),
});
