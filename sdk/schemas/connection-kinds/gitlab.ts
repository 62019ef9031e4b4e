import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** A self-hosted GitLab's URL, trimmed; unset for gitlab.com. */
const instanceUrl = z
  .string()
  .trim()
  .pipe(z.url({ error: "must be a URL" }));

/**
 * The service's `services/app-connection/gitlab/gitlab-connection-schemas.ts`. Its `oauth`
 * credentials are a union: the sign-in's `code`, or a `refreshToken` (a third shape, the stored
 * token set, has a `Date` field that JSON cannot carry), each with an optional `instanceUrl`. Here
 * one object with `code` and `refreshToken` optional and exactly one of them given (given both,
 * the service would keep `code` and drop `refreshToken`).
 */
export const gitlab = connectionKind({
  app: "gitlab",
  label: "GitLab",
  family: "DevOps platform",
  origin: "service-enum",
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A GitLab access token: secret. */
        accessToken: str,
        /** A self-hosted GitLab's URL; unset for gitlab.com. */
        instanceUrl: instanceUrl.optional(),
        /** The token's kind: `project` (a project access token) or `personal`. */
        accessTokenType: z.enum(["project", "personal"]),
      }),
      secretFields: ["accessToken"],
    },
    oauth: {
      credentials: strictObject({
        /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
        code: str.optional(),
        /** A GitLab OAuth refresh token, instead of `code`: secret. */
        refreshToken: str.optional(),
        /** A self-hosted GitLab's URL; unset for gitlab.com. */
        instanceUrl: instanceUrl.optional(),
      }).superRefine((c, ctx) => {
        if ((c.code === undefined) === (c.refreshToken === undefined)) {
          ctx.addIssue({ code: "custom", path: ["code"], message: "give exactly one of code and refreshToken" });
        }
      }),
      secretFields: ["code", "refreshToken"],
    },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["secret-scanning"],
  examples: {
    "access-token": {
      accessToken: "emulator-gitlab-token",
      instanceUrl: "https://gitlab.example.com",
      accessTokenType: "personal",
    },
    oauth: { refreshToken: "emulator-refresh-token" },
  },
});
