import type * as pulumi from "@pulumi/pulumi";

/**
 * The program's input types: a request schema's `z.input` made into a resource's args, each field
 * a `pulumi.Input`. Imports nothing but `@pulumi/pulumi`'s types, because the declarations
 * programs check against (provider/program-types.ts, generated) use `ObjectInput` from here, and
 * a program's type-check should not load the schemas' library.
 */

/**
 * A resource's args from a request schema's `z.input`: each field a `pulumi.Input`, deeply. A
 * homomorphic mapped type, so each field keeps its optionality and the docs written on its schema.
 */
export type ArgsOf<T> = { [K in keyof T]: DeepInput<T[K]> };

/** `ArgsOf<Omit<T, K>>` in one mapped type. */
export type ArgsWithout<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: DeepInput<T[P]> };

type Primitive = string | number | boolean | bigint | symbol | null | undefined;
type Nullish = null | undefined;

/**
 * Deeply `pulumi.Input`-wrapped version of an args shape. A primitive field is one `Input` of its
 * whole type (`Input<"a" | "b" | undefined>` rather than a union of an `Input` per member, which
 * would not take an `Output<"a" | undefined>`); an object is an `ObjectInput`, an array an `Input`
 * of an array of `DeepInput`s. An optional or nullable object or array also takes `undefined` or
 * `null`, as itself or in an `Output` or promise.
 */
export type DeepInput<T> = [T] extends [Primitive]
  ? pulumi.Input<T>
  : NestedInput<Exclude<T, Nullish>, Extract<T, Nullish>>;

/** `DeepInput` of an object or array type `T`, which may also be `N` (`null`, `undefined`). */
type NestedInput<T, N> = T extends readonly (infer U)[]
  ? pulumi.Input<DeepInput<U>[] | N>
  : T extends object
    ? ObjectInput<ArgsOf<T>, N>
    : pulumi.Input<T | N>;

/**
 * A nested object arg: the object (each field an `Input`), or an `Output` or a promise of it; or
 * `N` (`undefined` or `null` when the field may be), as itself or in an `Output` or promise.
 *
 * `pulumi.Input<O>` would do, but TypeScript cannot tell which of its three members an object
 * literal was meant for, so a mistake in it (`mapingBehavior`) is reported against the union,
 * without "Did you mean 'mappingBehavior'?", and a missing field is reported under the union's
 * name. Here the `Output` and promise members declare each of the object's fields, as an
 * `Output` (lifted, as a real `Output` has them) and as `undefined` (a promise has none): a
 * field's value in the literal then tells the members apart (each field is a discriminant, as
 * `destination` is for the args), and the compiler checks the literal against the object alone.
 */
export type ObjectInput<O, N = never> =
  | O
  | N
  | (pulumi.OutputInstance<O | N> & FieldsOf<O, pulumi.OutputInstance<unknown>>)
  | (Promise<O | N> & FieldsOf<O, undefined>);

/** O's fields, each `?: V`; nothing for an object with an index signature (a config without fields). */
type FieldsOf<O, V> = string extends keyof O ? unknown : FieldsAs<keyof O, V>;
type FieldsAs<K extends PropertyKey, V> = { [P in K]?: V };
