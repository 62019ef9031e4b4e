/** Every request and response shape of the API, shared by the SDK, the providers and the emulator. */
export * from "./common";
export * from "./app-connections";
export * from "./secret-syncs";
export * from "./secret-rotations";
export * from "./certificate-profiles";
export * from "./projects";
export * from "./secret-folders";
export * from "./secrets";
export * from "./certificate-authorities";
export * from "./certificate-policies";
export * from "./audit-logs";
export * from "./auth";
export * from "./identities";
export * from "./event-types";
export * from "./paths";
export * from "./issues";
export * from "./operations";
