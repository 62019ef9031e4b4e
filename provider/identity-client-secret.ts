import { z } from "zod";
import type { SecretOpsClient } from "../sdk";
import { SecretOpsApiError } from "../sdk/errors";
import { type ClientSecretData, ClientSecretCreateSchema, nonEmpty, strictObject } from "../sdk/schemas";
import { universalAuth } from "../sdk/schemas/identity-auth-methods/universal-auth";
import { commonOptions, defineResource } from "./definition";
import { type ArgsOf } from "./inputs";
import { isNotFound } from "./not-found";

/** Provider options: never sent to the service. */
const options = z.object({ ...commonOptions });

const args = ClientSecretCreateSchema.extend({
  /** The machine identity whose universal auth the secret logs in to (its `id`); the identity needs a universal-auth `IdentityAuth`. Changing it replaces the secret. */
  identityId: nonEmpty,
});
type Args = z.output<typeof args>;

/** The args of a client secret: the create body's schema, its identity, and the options'. */
export type IdentityClientSecretArgs = ArgsOf<z.input<typeof args>> & ArgsOf<z.input<typeof options>>;

/** A client secret's record, its identity, and the secret itself where this stack has it. */
type Remote = ClientSecretData & { identityId: string; clientSecret?: string };

/**
 * The identity lost its universal auth (400, the row's `notAttachedMessage`) or is gone (404): the
 * secret is gone with it.
 */
function isGone(e: unknown): boolean {
  if (isNotFound(e)) return true;
  return e instanceof SecretOpsApiError && e.status === 400 && e.message.includes(universalAuth.notAttachedMessage);
}

/**
 * A universal-auth client secret of a machine identity. The service shows the secret once, when
 * it makes it: the `clientSecret` output is a secret (encrypted in state, masked in previews), and
 * a refresh keeps it. The service has no PATCH for a secret: a change of any arg makes a new one
 * (before the old one goes) and revokes the old one. A revoked secret (by hand, or used up) is
 * gone: the next `up` makes a new one. `pulumi import` takes `<identityId>/<clientSecretId>`; an
 * imported secret has no `clientSecret` output (the service cannot show it again).
 */
export const identityClientSecretDefinition = defineResource<Remote, Args, z.output<typeof options>>()({
  type: "IdentityClientSecret",
  importPrefix: "identityId",
  // No PATCH: every arg replaces the secret.
  schemas: () => ({ args, update: strictObject({}) }),
  options,
  deleteBeforeReplace: false,
  secretOutputs: ["clientSecret"],
  reported: {
    identityId: (s) => s.identityId,
    description: (s) => s.description ?? "",
    numUsesLimit: (s) => s.clientSecretNumUsesLimit,
    ttl: (s) => s.clientSecretTTL,
  },
  computed: {
    /** The client secret: secret. Only the stack that made it has it (never an imported one). */
    clientSecret: (s) => s.clientSecret,
    clientSecretPrefix: (s) => s.clientSecretPrefix,
    isClientSecretRevoked: (s) => s.isClientSecretRevoked,
    clientSecretNumUses: (s) => s.clientSecretNumUses,
    createdAt: (s) => s.createdAt,
  },

  async create(client, { identityId, ...body }) {
    const { clientSecret, clientSecretData } = await client.identityAuths.createClientSecret(identityId, body);
    return { ...clientSecretData, identityId, clientSecret };
  },
  // Nothing tells one secret from another of its identity: a create whose outcome is unknown is sent again.
  find: async () => undefined,
  read: (client, id, outs) => readSecret(client, outs.identityId, id, outs.clientSecret),
  update() {
    throw new Error("an IdentityClientSecret has no update: a change of any arg replaces it");
  },
  async delete(client, id, outs) {
    try {
      await client.identityAuths.revokeClientSecret(outs.identityId, id);
    } catch (e) {
      if (!isGone(e)) throw e;
    }
  },
});

/** The secret's record, with the secret this stack holds (the service never shows it again); undefined when revoked or gone. */
async function readSecret(
  client: SecretOpsClient,
  identityId: string,
  id: string,
  clientSecret: unknown,
): Promise<Remote | undefined> {
  let data: ClientSecretData;
  try {
    data = await client.identityAuths.getClientSecret(identityId, id);
  } catch (e) {
    if (isGone(e)) return undefined;
    throw e;
  }
  if (data.isClientSecretRevoked) return undefined;
  return { ...data, identityId, ...(typeof clientSecret === "string" && { clientSecret }) };
}
