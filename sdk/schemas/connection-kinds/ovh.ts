import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/ovh/ovh-connection-schemas.ts`. */
export const ovh = connectionKind({
  app: "ovh",
  // The service's name map for this kind was not in the stored source (its list item says
  // "OVHcloud"); "OVH", the destination's name, keeps the emulator's wrong-kind message right.
  label: "OVH",
  family: "Cloud key management service",
  origin: { folder: "services/app-connection/ovh/" },
  methods: {
    certificate: {
      credentials: strictObject({
        /** The PEM private key of the OKMS access certificate: secret. */
        privateKey: str,
        /** The PEM access certificate issued for the OKMS domain: secret. */
        certificate: str,
        /** The OKMS domain's REST endpoint, e.g. `https://eu-west-rbx.okms.ovh.net`. */
        okmsDomain: str.pipe(z.url({ error: "must be a URL (e.g. https://eu-west-rbx.okms.ovh.net)" })),
        /** The OKMS domain's id. */
        okmsId: str,
      }),
      secretFields: ["privateKey", "certificate"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    certificate: {
      privateKey: "-----BEGIN PRIVATE KEY-----\nemulator\n-----END PRIVATE KEY-----",
      certificate: "-----BEGIN CERTIFICATE-----\nemulator\n-----END CERTIFICATE-----",
      okmsDomain: "https://example.com",
      okmsId: "00000000-0000-4000-8000-0000000000b2",
    },
  },
});
