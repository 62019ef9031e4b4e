import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/**
 * Where the GitHub instance is: the service's per-method union of a `server` variant (GitHub
 * Enterprise Server, `host` required) and a `cloud` one (github.com, `instanceType` and `host`
 * optional), modelled as one object and this rule.
 */
const instance = {
  /** `cloud` (github.com, the default) or `server` (GitHub Enterprise Server). */
  instanceType: z.enum(["server", "cloud"]).optional(),
  /** The GitHub Enterprise Server's host name; required with `instanceType: "server"`. */
  host: z.string().trim().optional(),
};
const hostForServer = (
  c: { instanceType?: "server" | "cloud" | undefined; host?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  if (c.instanceType === "server" && !c.host)
    ctx.addIssue({ code: "custom", message: 'is required with instanceType "server"', path: ["host"] });
};

/** The service's `services/app-connection/github/github-connection-schemas.ts`. */
export const github = connectionKind({
  app: "github",
  label: "GitHub",
  family: "Code hosting platform",
  origin: "service-enum",
  methods: {
    "github-app": {
      credentials: strictObject({
        /** The code GitHub returns when the app is installed, which the service exchanges: secret, never returned by the service. */
        code: str,
        /** The GitHub App installation's id: secret, never returned by the service. */
        installationId: z.string().min(1, { error: "must not be empty" }),
        ...instance,
      }).superRefine(hostForServer),
      secretFields: ["code", "installationId"],
    },
    oauth: {
      credentials: strictObject({
        /** The authorization code of the OAuth sign-in, which the service exchanges for a token: secret. */
        code: str,
        ...instance,
      }).superRefine(hostForServer),
      secretFields: ["code"],
    },
    pat: {
      credentials: strictObject({
        /** A GitHub personal access token: secret. */
        personalAccessToken: str,
        ...instance,
      }).superRefine(hostForServer),
      secretFields: ["personalAccessToken"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    oauth: { code: "emulator-oauth-code" },
    "github-app": { code: "emulator-code", installationId: "1234" },
    pat: { personalAccessToken: "emulator-pat" },
  },
});
