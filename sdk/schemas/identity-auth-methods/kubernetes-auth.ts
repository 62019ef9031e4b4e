import { z } from "zod";
import { identityAuthMethod, trimmed, uuidOrNull } from "./row";

export const tokenReviewModes = ["api", "gateway"] as const;

/**
 * The service's `server/routes/v1/identity-kubernetes-auth-router.ts` and
 * `services/identity-kubernetes-auth/identity-kubernetes-auth-service.ts`: a login sends the pod's
 * service-account JWT, which the service has the cluster's TokenReview API check (with
 * `tokenReviewerJwt`, or the login's own JWT when none is set).
 */
export const kubernetesAuth = identityAuthMethod({
  method: "kubernetes-auth",
  label: "Kubernetes Auth",
  alreadyAttachedMessage: "Failed to add Kubernetes Auth to already configured identity",
  notAttachedMessage: "The identity does not have Kubernetes Auth attached",
  origin: "backend/src/server/routes/v1/identity-kubernetes-auth-router.ts",
  responseKey: "identityKubernetesAuth",
  fields: {
    /** The cluster's API server URL (`https://kubernetes.example.com:6443`); required with `tokenReviewMode` `api`. */
    kubernetesHost: {
      schema: z
        .string()
        .trim()
        .min(1, { error: "must not be empty" })
        .regex(/^[a-zA-Z0-9:./-]+$/, { error: "must contain only letters, digits, ':', '.', '/' and '-'" })
        .nullable(),
    },
    /** The PEM CA certificate of the API server: secret (the service keeps it encrypted). Default "". */
    caCert: { schema: trimmed, default: "" },
    /** A service account's JWT allowed to call the TokenReview API: secret. Unset: each login's own JWT reviews itself. */
    tokenReviewerJwt: { schema: trimmed.nullable().optional() },
    /** Who calls the TokenReview API: `api` (the service, at `kubernetesHost`) or `gateway` (through `gatewayId`). Default `api`. */
    tokenReviewMode: { schema: z.enum(tokenReviewModes), default: "api" },
    /** Namespaces allowed to log in, comma-separated; "" for any. */
    allowedNamespaces: { schema: z.string() },
    /** Service-account names allowed to log in, comma-separated; "" for any. */
    allowedNames: { schema: z.string() },
    /** The audience the service-account token must have; "" for any. */
    allowedAudience: { schema: z.string() },
    /** The gateway that reaches the cluster; required with `tokenReviewMode` `gateway`. */
    gatewayId: { schema: uuidOrNull.optional() },
  },
  secretFields: ["caCert", "tokenReviewerJwt"],
  returnedSecretFields: ["caCert", "tokenReviewerJwt"],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  attachRules(body) {
    const mode = body.tokenReviewMode ?? "api";
    if (mode === "api" && !body.kubernetesHost)
      return [
        {
          path: "kubernetesHost",
          message: "When token review mode is set to API, a Kubernetes host must be provided",
        },
      ];
    if (mode === "gateway" && !body.gatewayId)
      return [{ path: "gatewayId", message: "When token review mode is set to Gateway, a gateway must be selected" }];
    return [];
  },
  login: "identity-jwt",
  example: {
    kubernetesHost: "https://kubernetes.default.svc",
    allowedNamespaces: "ci",
    allowedNames: "",
    allowedAudience: "",
  },
});
