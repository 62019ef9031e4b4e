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
