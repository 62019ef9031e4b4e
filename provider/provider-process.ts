import type * as dynamic from "@pulumi/pulumi/dynamic";
import { configure as configureSettings } from "./config";
import type { ResourceDefinition, ResourceType } from "./definition";
import { dynamicProvider } from "./dynamic-provider";

/**
 * The provider process's entry point (`secretops-pulumi/runtime`), loaded by the serialized
 * provider of every resource. A type's definition loads on first use.
 */

const definitions: Record<ResourceType, () => ResourceDefinition<{ id: string }>> = {
  SecretSync: () => require("./secret-sync").secretSyncDefinition,
  SecretRotation: () => require("./secret-rotation").secretRotationDefinition,
  CertificateProfile: () => require("./certificate-profile").certificateProfileDefinition,
  AppConnectionSettings: () => require("./app-connection-settings").appConnectionSettingsDefinition,
};

const providers = new Map<ResourceType, dynamic.ResourceProvider>();

export function provider(type: ResourceType): dynamic.ResourceProvider {
  let p = providers.get(type);
  if (!p) {
    const load = definitions[type];
    if (!load) throw new Error(`unknown resource type ${type}`);
    p = dynamicProvider(load());
    providers.set(type, p);
  }
  return p;
}

/** The engine hands the stack config over here once per serialized provider. */
export function configure(req: dynamic.ConfigureRequest): void {
  configureSettings(req.config);
}
