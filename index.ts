/**
 * secretops-pulumi: Pulumi dynamic resources for secret syncs, secret rotations, certificate
 * profiles and app-connection settings, and an audit-log query.
 *
 * The typed API client is `secretops-pulumi/sdk`; the local emulator is `secretops-pulumi/emulator`.
 */
export * from "./provider";
