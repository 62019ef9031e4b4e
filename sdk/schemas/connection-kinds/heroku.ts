import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/**
 * The service's `services/app-connection/heroku/heroku-connection-schemas.ts`. Its `oauth`
 * credentials are a union: the sign-in's `code`, or a `refreshToken` (a third shape, the stored
 * token set, has a `Date` field that JSON cannot carry). Here one object with both optional and
 * exactly one of them given (given both, the service would keep `code` and drop `refreshToken`).
 * The service returns no credential field of either method.
 */
export const heroku = connectionKind({
  app: "heroku",
  label: "Heroku",
  family: "Application platform",
  origin: "service-enum",
  methods: {
    "auth-token": {
      credentials: strictObject({
        /** A Heroku API token (`HRKU-...`): secret. */
        authToken: str.startsWith("HRKU-", { error: "must start with 'HRKU-'" }),
      }),
      secretFields: ["authToken"],
    },
    oauth: {
      credentials: strictObject({
        /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
        code: str.optional(),
        /** A Heroku OAuth refresh token, instead of `code`: secret. */
        refreshToken: str.optional(),
      }).superRefine((c, ctx) => {
        if ((c.code === undefined) === (c.refreshToken === undefined)) {
          ctx.addIssue({ code: "custom", path: ["code"], message: "give exactly one of code and refreshToken" });
        }
      }),
      secretFields: ["code", "refreshToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "auth-token": { authToken: "HRKU-emulator-heroku-token" }, oauth: { code: "emulator-code" } },
});
