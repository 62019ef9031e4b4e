/**
 * The one table of the API's operations, a file per family: the route rows of one family load
 * without the others' kind tables (a provider process serving only secret syncs never builds the
 * connection kinds' schemas). The shape of a row is in ./operation.
 */
export * from "./operation";
export * from "./app-connections";
export * from "./secret-syncs";
export * from "./secret-rotations";
export * from "./certificate-profiles";
export * from "./project-tree";
export * from "./audit-logs";
export * from "./auth";
export * from "./identities";
export * from "./project-access";
export * from "./secrets-v3";
export * from "./workspace-v1";
