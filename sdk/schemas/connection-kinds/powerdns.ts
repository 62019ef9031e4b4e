import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax, trimmedCertificate } from "./row";

/** `v` as a URL, or undefined when it is none (the refinements below run on any string). */
const parsed = (v: string) => (URL.canParse(v) ? new URL(v) : undefined);

/** The PowerDNS web server's base URL: `http(s)`, no query or fragment, and not the `/api/v1` path itself. */
const apiUrl = strMax(512)
  .pipe(z.url({ error: "API URL must be a valid URL" }))
  .refine((v) => ["http:", "https:"].includes(parsed(v)?.protocol ?? ""), { error: "API URL must use http or https" })
  .refine((v) => !parsed(v)?.search && !parsed(v)?.hash, {
    error: "API URL must not contain a query string or fragment",
  })
  .refine((v) => !/\/api(\/v\d+)?\/*$/.test(parsed(v)?.pathname ?? ""), {
    error:
      "API URL must not include the /api/v1 path, only the web server address (e.g. https://pdns.example.com:8081)",
  });

/** The service's `services/app-connection/powerdns/powerdns-connection-schemas.ts`. */
export const powerdns = connectionKind({
  app: "powerdns",
  label: "PowerDNS",
  family: "DNS server",
  origin: { folder: "services/app-connection/powerdns/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** The base URL of the PowerDNS web server, without the `/api/v1` path, e.g. `https://pdns.example.com:8081`, at most 512 characters. */
        apiUrl,
        /** The value of the PowerDNS `api-key` setting, at most 512 characters: secret, never returned by the service. */
        apiKey: strMax(512),
        /** The PowerDNS API server id, at most 64 characters (letters, digits, dots, hyphens and underscores, not starting with a symbol, no `..`); unset: the server's own (`localhost`). `""` counts as unset. */
        serverId: z
          .string()
          .trim()
          .max(64, { error: "must be at most 64 characters" })
          .refine((v) => !v || /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/.test(v), {
            error: "may only contain letters, numbers, dots, hyphens and underscores",
          })
          .refine((v) => !v.includes(".."), { error: "must not contain '..'" })
          .optional()
          .transform((v) => v || undefined),
        /** Refuse a PowerDNS TLS certificate that is not trusted; unset: refuse. */
        sslRejectUnauthorized: z.boolean().optional(),
        /** A PEM CA certificate to trust for HTTPS, at most 8192 characters; `""` for none. */
        sslCertificate: trimmedCertificate(8192),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "api-key": {
      apiUrl: "https://pdns.example.com:8081",
      apiKey: "emulator-powerdns-key",
      serverId: "localhost",
      sslRejectUnauthorized: true,
    },
  },
});
