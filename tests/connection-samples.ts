import { randomBytes, randomUUID } from "node:crypto";
import type { z } from "zod";
import { appConnectionKinds } from "../sdk/schemas";

/**
 * A canary for a secret credential field, in a form the field's schema accepts: as is, after the
 * sample's value (a required prefix), over the end of the sample's value (a fixed length, such as
 * Okta's `00` and 40 characters), as an email or a URL, or (a UUID field) a fresh UUID, or (a
 * hexadecimal key, such as Nutanix Prism Central's API key) 32 fresh lowercase hex digits.
 */
export function credentialCanaryValue(
  app: string,
  method: string,
  field: string,
  plain: string,
  sample?: unknown,
): string {
  const kinds = appConnectionKinds as unknown as Record<
    string,
    { methods: Record<string, { credentials: z.ZodObject }> }
  >;
  const schema = kinds[app]!.methods[method]!.credentials.shape[field] as z.ZodType;
  const prefix = typeof sample === "string" ? sample : "";
  const forms = [plain, plain.replace(/[^A-Za-z0-9-]/g, "-")].flatMap((c) => [
    c,
    `${prefix}${c}`,
    ...(prefix.length > c.length ? [`${prefix.slice(0, prefix.length - c.length)}${c}`] : []),
    `${c}@canary.example.com`,
    `https://canary.example.com/${c}`,
  ]);
  for (const value of [...forms, randomUUID(), randomBytes(16).toString("hex")]) {
    if (schema.safeParse(value).success) return value;
  }
  throw new Error(`no canary fits ${app}/${method} credentials.${field}`);
}
