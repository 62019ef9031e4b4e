import { type Plain, isPlainObject } from "./values";

/**
 * Runs in the provider process: which of the service's objects the program's resources hold in
 * this operation, so that a delete never removes an object another resource of the stack holds.
 *
 * Names and slugs are unique at the service, so a create that meets its name taken by an object
 * matching the program takes that object (`claim`, provider/dynamic-provider.ts): that is how an
 * `up` killed before it recorded an id recovers. But a resource renamed in the program without an
 * alias is, to the engine, a new resource and a removed one: it creates the new one (which claims
 * the object) and then deletes the old one, which held the same object. The delete must leave it.
 *
 * One provider process serves every resource of a program (both front doors). The engine calls
 * `diff` (or `create`) for every resource the program declares before it deletes any resource the
 * program dropped: it generates those deletes once the program has registered everything
 * (docs/resources.md, "Renaming a resource"). So when such a delete comes, every object a declared
 * resource keeps is known here. One record per definition (its provider serves
 * every class and type token of the family: `SecretSync` and `GenericSecretSync`), by endpoint and
 * id. `pulumi destroy` calls neither diff nor create, so it deletes everything as it should.
 */

/** A declared resource of the program that holds an object: its name in the program, when known. */
export interface Holder {
  readonly name: string | undefined;
}

const key = (endpoint: string | undefined, id: string) => `${endpoint ?? ""}\u0000${id}`;

/** Object keys sorted at every level, `undefined` left out: the same value gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (!isPlainObject(value)) return JSON.stringify(value) ?? "null";
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

export class HeldObjects {
  private readonly holders = new Map<string, Holder>();
  /** The program's name of each resource by the inputs its check returned (the dynamic path's create and diff get no name). */
  private readonly names = new Map<string, string>();

  /** From check: the resource `name` of the program declares these (checked) inputs. */
  named(inputs: Plain, name: string): void {
    this.names.set(canonical(inputs), name);
  }

  /** The program's name of the resource whose checked inputs these are, if check saw it. */
  nameOf(inputs: Plain): string | undefined {
    return this.names.get(canonical(inputs));
  }

  /** A declared resource keeps the object `id` (its diff plans no replacement, or its create made or took it). */
  hold(endpoint: string | undefined, id: string, holder: Holder): void {
    this.holders.set(key(endpoint, id), holder);
  }

  /**
   * The declared resource that keeps the object, if one does. The engine deletes a resource it
   * keeps only to replace it, and a diff that plans a replacement holds nothing; a replacement it
   * forces (`pulumi up --replace`) runs no diff.
   */
  holderOf(endpoint: string | undefined, id: string): Holder | undefined {
    return this.holders.get(key(endpoint, id));
  }
}
