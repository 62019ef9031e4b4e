import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `ee/services/app-connections/oci/oci-connection-schemas.ts`. */
export const oci = connectionKind({
  app: "oci",
  label: "OCI",
  family: "Cloud infrastructure account",
  origin: "service-enum",
  methods: {
    "access-key": {
      credentials: strictObject({
        /** The OCID of the API key's user. */
        userOcid: str,
        /** The OCID of the tenancy. */
        tenancyOcid: str,
        /** The region, e.g. `us-ashburn-1`. */
        region: str,
        /** The API key's fingerprint. */
        fingerprint: str,
        /** The API key's PEM private key: secret. */
        privateKey: str,
      }),
      secretFields: ["privateKey"],
    },
  },
  patchSupport: standardPatchSupport,
  enterprise: true,
  examples: {
    "access-key": {
      userOcid: "ocid1.user.oc1..emulator",
      tenancyOcid: "ocid1.tenancy.oc1..emulator",
      region: "us-ashburn-1",
      fingerprint: "12:34:56:78:9a:bc:de:f0:12:34:56:78:9a:bc:de:f0",
      privateKey: "-----BEGIN PRIVATE KEY-----\nemulator\n-----END PRIVATE KEY-----",
    },
  },
});
