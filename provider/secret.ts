import { z } from "zod";
import { type Secret as ServiceSecret, SharedSecretCreateSchema, secretName, secretValue } from "../sdk/schemas";
import type { SecretOpsClient } from "../sdk";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { uniqueIn } from "./program-keys";
import { type ArgsOf } from "./inputs";
import { folderScope, scopePlace } from "./secret-folder";
import { familyReads } from "./shared-reads";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /**
   * Take over an existing secret with this key in the folder instead of failing. Its value is
   * written only when the program gives another one (an equal value, or none, writes nothing).
   * Default false.
   */
  adoptExisting: z.boolean().default(false),
});

/**
 * The args of a secret: the create body's (a shared secret: the body's `type` is left out, a
 * machine identity makes no personal ones), its key, and a value the program may leave out.
 */
const args = SharedSecretCreateSchema.extend({
  /**
   * The secret's key (no `:` or `/`), unique in its folder, as syncs and programs read it.
   * Changing it renames the secret in place.
   */
  secretName,
  /**
   * The value: secret, encrypted in state, never in outputs, logs or previews. Changing it
   * updates in place. Left out, the resource manages the key and metadata of a secret that
   * exists (imported, or adopted) and never writes its value; a new secret needs one.
   */
  secretValue: secretValue.optional(),
});
type Args = z.output<typeof args>;

/** The args of a secret: the args schema's and the options'. */
export type SecretArgs = ArgsOf<z.input<typeof args>> & ArgsOf<z.input<typeof options>>;

/** The rule a new secret without a value breaks. */
const VALUE_REQUIRED =
  "is required to create a secret; leave it out only for a secret that exists (imported, or adoptExisting: " +
  "true), whose value the resource then leaves as it is";

/** What a PATCH changes (it names the secret's place and key to find it). */
const updatable = args
  .pick({ secretName: true, secretValue: true, secretComment: true, skipMultilineEncoding: true })
  .partial();

/** Where a secret is. */
interface Place {
  projectId: string;
  environment: string;
  secretPath: string;
}

/** A secret with its place: where the service says it is, else where it was asked for. */
export type PlacedSecret = ServiceSecret & Place;

const placedAt = (s: ServiceSecret, place: Place): PlacedSecret => ({
  ...s,
  projectId: s.projectId ?? s.workspace ?? place.projectId,
  environment: s.environment ?? place.environment,
  secretPath: s.secretPath ?? place.secretPath,
});

const placeOf = (a: Place): Place => ({ projectId: a.projectId, environment: a.environment, secretPath: a.secretPath });

/**
 * A folder's secrets, one read, with their values as written (references not expanded, so a
 * `${KEY}` in a value is never drift): a refresh compares each value with the hash of the one
 * last written (values stay in this process's memory, never in outputs or state). A folder that
 * is gone is a 404: the shared reads then read each secret by id, which finds it gone too.
 */
async function listSecrets(client: SecretOpsClient, scope: string): Promise<PlacedSecret[]> {
  const { path, ...rest } = scopePlace(scope);
  const place = { ...rest, secretPath: path };
  return (await client.secrets.list({ ...place, expandSecretReferences: false })).map((s) => placedAt(s, place));
}

const secretReads = familyReads(listSecrets);
const scopeOfSecret = (v: Partial<Place>) => folderScope(v.projectId, v.environment, v.secretPath);

/**
 * A secret: a key and its value in a folder of an environment. The value is a secret everywhere
 * (encrypted in state, never an output, masked in previews); a refresh tells when it was changed
 * outside the program, without showing it, and the next `up` writes the program's value again.
 * Renamed in place when `secretName` changes; replaced when `projectId`, `environment` or
 * `secretPath` changes.
 */
export const secretDefinition = defineResource<PlacedSecret, Args, z.output<typeof options>>()({
  type: "Secret",
  schemas: () => ({ args, update: updatable }),
  options,
  // Keys are unique per folder: a secret replaced is one that moves to another place.
  deleteBeforeReplace: false,
  secretPaths: { of: () => ["secretValue"], all: ["secretValue"] },
  returnedSecrets: { secretValue: (s) => (s.secretValueHidden ? undefined : s.secretValue) },
  requiredOnCreate: { secretValue: VALUE_REQUIRED },
  // The service keeps no comment as an empty one.
  absentMeans: { secretComment: "" },
  reported: {
    projectId: (s) => s.projectId,
    environment: (s) => s.environment,
    secretPath: (s) => s.secretPath,
    secretName: (s) => s.secretKey,
    secretComment: (s) => s.secretComment ?? "",
    skipMultilineEncoding: (s) => s.skipMultilineEncoding,
  },
  computed: {
    version: (s) => s.version,
    createdAt: (s) => s.createdAt,
    updatedAt: (s) => s.updatedAt,
  },
  exclusive: uniqueIn("Secret", "secretName", ["projectId", "environment", "secretPath"], "in one folder"),
  // Renaming its environment or folder (or one above it) moves it, with its id and value.
  inTree: { pathField: "secretPath" },

  async create(client, { secretName: key, secretValue: value, ...body }) {
    // The core refuses a create without a value first, in these words.
    if (value === undefined) throw new Error(`secretValue: ${VALUE_REQUIRED}`);
    return placedAt(await client.secrets.create(key, { ...body, secretValue: value }), body);
  },
  // With its value: adoption writes the program's value only where it differs from the service's.
  find: async (client, a) =>
    orUndefinedOn404(
      client.secrets.get(a.secretName, { ...placeOf(a), expandSecretReferences: false }).then((s) => placedAt(s, a)),
    ),
  // By id: found wherever it is, under whatever key (renamed outside the program, or imported).
  read: async (client, id, outs) => {
    const found = await orUndefinedOn404(client.secrets.getById(id));
    return found && placedAt(found, outs);
  },
  listed: { scopeOf: scopeOfSecret, reads: secretReads },
  async update(client, _id, patch, outs) {
    const place = placeOf(outs);
    const updated = await client.secrets.update(outs.secretName, {
      ...place,
      secretValue: patch.secretValue,
      secretComment: patch.secretComment,
      skipMultilineEncoding: patch.skipMultilineEncoding ?? undefined,
      newSecretName: patch.secretName,
    });
    return placedAt(updated, place);
  },
  // The service deletes by key and place: the secret is found by id first (its folder's list,
  // shared with the deletes near in time), so another object that took its key is never deleted,
  // and one whose folder was renamed or moved since is deleted where it is.
  async delete(client, id, outs) {
    const scope = scopeOfSecret(outs);
    const listed = scope === undefined ? undefined : await secretReads.at(client).find(scope, id);
    const found = listed ?? (await orUndefinedOn404(client.secrets.getById(id)));
    if (found) await client.secrets.delete(found.secretKey, placeOf(placedAt(found, outs)));
  },
});
