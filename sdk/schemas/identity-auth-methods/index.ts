import type { IdentityAuthMethodRow } from "./row";
import { universalAuth } from "./universal-auth";
import { tokenAuth } from "./token-auth";
import { kubernetesAuth } from "./kubernetes-auth";
import { oidcAuth } from "./oidc-auth";
import { jwtAuth } from "./jwt-auth";
import { awsAuth } from "./aws-auth";
import { gcpAuth } from "./gcp-auth";
import { azureAuth } from "./azure-auth";
import { alicloudAuth } from "./alicloud-auth";
import { ociAuth } from "./oci-auth";
import { tlsCertAuth } from "./tls-cert-auth";
import { ldapAuth } from "./ldap-auth";
import { spiffeAuth } from "./spiffe-auth";

export * from "./row";

/**
 * Every login method of a machine identity, by its real slug: one row each, read from the
 * service's `IdentityAuthMethod` enum (`services/identity/identity-types.ts`: 13 methods) and each
 * method's router (`origin`). Adding a method is adding its row.
 */
export const identityAuthMethods = {
  [universalAuth.method]: universalAuth,
  [tokenAuth.method]: tokenAuth,
  [kubernetesAuth.method]: kubernetesAuth,
  [oidcAuth.method]: oidcAuth,
  [jwtAuth.method]: jwtAuth,
  [awsAuth.method]: awsAuth,
  [gcpAuth.method]: gcpAuth,
  [azureAuth.method]: azureAuth,
  [alicloudAuth.method]: alicloudAuth,
  [ociAuth.method]: ociAuth,
  [tlsCertAuth.method]: tlsCertAuth,
  [ldapAuth.method]: ldapAuth,
  [spiffeAuth.method]: spiffeAuth,
} as const satisfies Record<string, IdentityAuthMethodRow>;
