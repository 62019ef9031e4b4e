import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** `v` is the base `https://` URL of an instance: no path, query or fragment. */
const isInstanceBaseUrl = (v: string) => {
  if (!URL.canParse(v)) return false;
  const { protocol, pathname, search, hash } = new URL(v);
  return protocol === "https:" && (pathname === "" || pathname === "/") && !search && !hash;
};

/**
 * The service's `services/app-connection/servicenow/servicenow-connection-schemas.ts` (a
 * `service-now/` folder of one stored version, without a method enum, is an earlier draft of it).
 */
export const servicenow = connectionKind({
  app: "servicenow",
  label: "ServiceNow",
  family: "IT service management platform",
  origin: { folder: "services/app-connection/servicenow/" },
  methods: {
    "basic-auth": {
      credentials: strictObject({
        /** The instance's base URL, `https://` only, without a path or query, e.g. `https://example.service-now.com`, at most 512 characters; the service drops a trailing slash. */
        instanceUrl: strMax(512).refine(isInstanceBaseUrl, {
          error: "Instance URL must be the HTTPS base URL of your ServiceNow instance, without a path or query string",
        }),
        /** The user the service signs in as, at most 256 characters. */
        username: strMax(256),
        /** That user's password, at most 512 characters: secret, never returned by the service. */
        password: strMax(512),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "basic-auth": {
      instanceUrl: "https://emulator.service-now.com",
      username: "infisical.integration",
      password: "emulator-servicenow-password",
    },
  },
});
