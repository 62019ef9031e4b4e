import { z } from "zod";
import { secretName, strictObject } from "../common";
import { cloudflareTokenIpLists, cloudflareTokenName } from "./cloudflare-api-token";
import { rotationRow } from "./row";

const bucket = strictObject({
  /** The bucket's name, 1 to 64 characters. */
  name: z.string().trim().min(1, { error: "must not be empty" }).max(64, { error: "must be at most 64 characters" }),
  /** The bucket's jurisdiction: `default`, `eu` or `fedramp` (default `default`). */
  jurisdiction: z.enum(["default", "eu", "fedramp"]).default("default"),
});

/** The service's `ee/services/secret-rotation-v2/cloudflare-r2-access-key/cloudflare-r2-access-key-rotation-schemas.ts`. */
export const cloudflareR2AccessKey = rotationRow({
  type: "cloudflare-r2-access-key",
  label: "Cloudflare R2 Access Key",
  family: "Object storage access key",
  origin: { folder: "ee/services/secret-rotation-v2/cloudflare-r2-access-key/" },
  connectionApp: "cloudflare",
  parameters: strictObject({
    /** The name of the generated tokens (the service appends a timestamp), 1 to 100 characters. */
    name: cloudflareTokenName,
    /** The R2 buckets the key may access, at least one, each name and jurisdiction once. */
    buckets: z
      .array(bucket)
      .min(1, { error: "must have at least one bucket" })
      .refine((bs) => new Set(bs.map((b) => `${b.jurisdiction}:${b.name}`)).size === bs.length, {
        error: "must not name the same bucket twice",
      }),
    /** `object-read` (default) or `object-read-write`. */
    accessLevel: z.enum(["object-read", "object-read-write"]).default("object-read"),
    ...cloudflareTokenIpLists,
  }),
  secretsMapping: strictObject({
    /** The secret the active key's underlying API token is written to. */
    apiToken: secretName,
    /** The secret the active access key id is written to. */
    accessKeyId: secretName,
    /** The secret the active secret access key is written to. */
    secretAccessKey: secretName,
  }),
  generatedCredentials: z.object({ apiToken: z.string(), accessKeyId: z.string(), secretAccessKey: z.string() }),
  secretFields: ["apiToken", "secretAccessKey"],
  example: {
    parameters: {
      name: "emulator-r2-key",
      buckets: [{ name: "assets", jurisdiction: "eu" }],
      accessLevel: "object-read",
    },
  },
});
