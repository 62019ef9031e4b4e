import { z } from "zod";

/** Universal-auth login (docs/service-api.md §7). */
export const UniversalAuthLoginSchema = z.object({
  clientId: z.string().min(1, { error: "must not be empty" }),
  clientSecret: z.string().min(1, { error: "must not be empty" }),
  subOrganizationName: z.string().optional(),
});
export type UniversalAuthLogin = z.infer<typeof UniversalAuthLoginSchema>;

export const UniversalAuthTokenSchema = z.object({
  accessToken: z.string(),
  expiresIn: z.number(),
  accessTokenMaxTTL: z.number(),
  tokenType: z.literal("Bearer"),
});
export type UniversalAuthToken = z.infer<typeof UniversalAuthTokenSchema>;

/**
 * The logins that send a JWT the caller was given (OIDC: a CI system's id token; Kubernetes: a
 * pod's service-account token; JWT auth): `POST /api/v1/auth/{method}/login` (docs/service-api.md §18).
 */
export const IdentityJwtLoginSchema = z.object({
  identityId: z.string().trim().min(1, { error: "must not be empty" }),
  jwt: z.string().trim().min(1, { error: "must not be empty" }),
});
export type IdentityJwtLogin = z.infer<typeof IdentityJwtLoginSchema>;
