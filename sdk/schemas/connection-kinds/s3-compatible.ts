import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** `v` is an `https://` URL with no user, password, path, query or fragment. */
const isEndpointUrl = (v: string) => {
  if (!URL.canParse(v)) return false;
  const url = new URL(v);
  return (
    url.protocol === "https:" && !url.username && !url.password && url.pathname === "/" && !url.search && !url.hash
  );
};

/**
 * The service's `services/app-connection/s3-compatible/s3-compatible-connection-schemas.ts`. The
 * service accepts an endpoint of AWS S3, Cloudflare R2, Google Cloud Storage or OCI Object Storage,
 * or a host name its administrator allowed; that last rule is the service's own setting, so it is
 * left to the service.
 */
export const s3Compatible = connectionKind({
  app: "s3-compatible",
  label: "S3-Compatible Storage",
  family: "Object storage",
  origin: { folder: "services/app-connection/s3-compatible/" },
  methods: {
    "access-key": {
      credentials: strictObject({
        /** The provider's S3 API endpoint, an `https://` URL without a bucket name or path, e.g. `https://s3.us-east-1.amazonaws.com`, at most 256 characters. */
        endpoint: strMax(256).refine(isEndpointUrl, { error: "Endpoint must be an HTTPS URL without a bucket name" }),
        /** The access key id, at most 256 characters. */
        accessKeyId: strMax(256),
        /** The secret access key, at most 256 characters: secret. */
        secretAccessKey: strMax(256),
      }),
      secretFields: ["secretAccessKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "access-key": {
      endpoint: "https://s3.us-east-1.amazonaws.com",
      accessKeyId: "AKIAEMULATORS3COMPAT",
      secretAccessKey: "emulator-s3-compatible-secret",
    },
  },
});
