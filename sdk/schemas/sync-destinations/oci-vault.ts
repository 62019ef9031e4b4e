import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** A trimmed, non-empty OCID matching `pattern`. */
const ocid = (pattern: RegExp, error: string) =>
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .refine((v) => pattern.test(v), { error });

/** The service's `ee/services/secret-sync/oci-vault/oci-vault-sync-schemas.ts`. */
export const ociVault = destinationRow({
  destination: "oci-vault",
  label: "OCI Vault",
  family: "Cloud key vault",
  origin: "service-enum",
  connectionApp: "oci",
  destinationConfig: strictObject({
    /** The OCID of the compartment (or tenancy) the secrets are created in. */
    compartmentOcid: ocid(
      /^ocid1\.(tenancy|compartment)\.oc1\..+$/,
      "must be a compartment OCID (starting ocid1.tenancy.oc1. or ocid1.compartment.oc1.)",
    ),
    /** The OCID of the vault the secrets are stored in. */
    vaultOcid: ocid(/^ocid1\.vault\.oc1\..+$/, "must be a vault OCID (starting ocid1.vault.oc1.)"),
    /** The OCID of the vault's master encryption key the secrets are encrypted with. */
    keyOcid: ocid(/^ocid1\.key\.oc1\..+$/, "must be a key OCID (starting ocid1.key.oc1.)"),
  }),
  extraSyncOptions: {},
  enterprise: true,
  canImport: true,
  duplicateCheckIgnores: [],
  example: {
    destinationConfig: {
      compartmentOcid: "ocid1.compartment.oc1..exampleuniqueid",
      vaultOcid: "ocid1.vault.oc1.iad.exampleuniqueid",
      keyOcid: "ocid1.key.oc1.iad.exampleuniqueid",
    },
  },
});
