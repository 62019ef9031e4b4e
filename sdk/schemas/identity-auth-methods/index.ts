import type { IdentityAuthMethodRow } from "./row";
import { universalAuth } from "./universal-auth";
import { tokenAuth } from "./token-auth";
import { kubernetesAuth } from "./kubernetes-auth";
import { oidcAuth } from "./oidc-auth";
import { jwtAuth } from "./jwt-auth";

export * from "./row";

/**
 * Every login method of a machine identity, by its real slug: one row each, read from the
 * service's `IdentityAuthMethod` enum and each method's router (`origin`). Adding a method is
 * adding its row.
 */
export const identityAuthMethods = {
  [universalAuth.method]: universalAuth,
  [tokenAuth.method]: tokenAuth,
  [kubernetesAuth.method]: kubernetesAuth,
  [oidcAuth.method]: oidcAuth,
  [jwtAuth.method]: jwtAuth,
} as const satisfies Record<string, IdentityAuthMethodRow>;
