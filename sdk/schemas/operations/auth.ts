import { UniversalAuthLoginSchema, UniversalAuthTokenSchema } from "../auth";
import { apiPaths } from "../paths";
import { op } from "./operation";

export const authOperations = {
  /** Repeating a login is harmless: it only issues another token. No bearer token. */
  universalAuthLogin: op({
    method: "POST",
    path: apiPaths.universalAuthLogin,
    body: UniversalAuthLoginSchema,
    response: UniversalAuthTokenSchema,
    auth: false,
    idempotent: true,
  }),
};
