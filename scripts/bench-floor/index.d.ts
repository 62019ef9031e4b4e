import * as pulumi from "@pulumi/pulumi";

/** A no-op dynamic resource: its args are stored as its outputs. */
export declare class Noop extends pulumi.CustomResource {
  constructor(name: string, args: object, opts?: pulumi.CustomResourceOptions);
}
/** The `__provider` every Noop registers. */
export declare const PROVIDER: string;
