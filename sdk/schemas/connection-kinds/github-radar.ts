import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/github-radar/github-radar-connection-schemas.ts`. */
export const githubRadar = connectionKind({
  app: "github-radar",
  label: "GitHub Radar",
  family: "Code scanning app",
  origin: "service-enum",
  methods: {
    "github-app": {
      credentials: strictObject({
        /** The code GitHub returns when the Radar app is installed, which the service exchanges: secret, never returned by the service. */
        code: str,
        /** The GitHub Radar App installation's id: secret, never returned by the service. */
        installationId: z.string().min(1, { error: "must not be empty" }),
      }),
      secretFields: ["code", "installationId"],
    },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["secret-scanning"],
  examples: { "github-app": { code: "emulator-github-app-code", installationId: "12345678" } },
});
