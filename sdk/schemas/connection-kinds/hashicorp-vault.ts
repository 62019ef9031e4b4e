import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The Vault server's URL (trimmed, then checked as a URL). */
const instanceUrl = z.url({ error: "must be a URL" }).trim();
/** The Vault namespace (Vault Enterprise / HCP); optional. */
const namespace = z.string().trim().optional();

/** The service's `services/app-connection/hc-vault/hc-vault-connection-schemas.ts`. */
export const hashicorpVault = connectionKind({
  app: "hashicorp-vault",
  label: "Hashicorp Vault",
  family: "Secrets manager",
  origin: "service-enum",
  methods: {
    "access-token": {
      credentials: strictObject({
        /** The Vault server's URL, e.g. `https://vault.example.com:8200`. */
        instanceUrl,
        /** The Vault namespace to work in (Vault Enterprise or HCP Vault); unset for the root namespace. */
        namespace,
        /** A Vault token: secret. */
        accessToken: str,
      }),
      secretFields: ["accessToken"],
    },
    "app-role": {
      credentials: strictObject({
        /** The Vault server's URL, e.g. `https://vault.example.com:8200`. */
        instanceUrl,
        /** The Vault namespace to work in (Vault Enterprise or HCP Vault); unset for the root namespace. */
        namespace,
        /** The AppRole's role id. */
        roleId: str,
        /** A secret id of the AppRole: secret. */
        secretId: str,
      }),
      secretFields: ["secretId"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "access-token": { instanceUrl: "https://vault.example.com:8200", accessToken: "emulator-vault-token" },
    "app-role": { instanceUrl: "https://vault.example.com", roleId: "role", secretId: "emulator-secret-id" },
  },
});
