import type * as dynamic from "@pulumi/pulumi/dynamic";
import { configure as configureSettings } from "./config";
import type { FamilyName } from "./resource";
import { providerFor } from "./scaffold";

/**
 * The provider process's entry point (`secretops-pulumi/runtime`), loaded by the serialized
 * provider of every resource. Families load on first use.
 */

const families: Record<FamilyName, () => dynamic.ResourceProvider> = {
  SecretSync: () => providerFor(require("./secret-sync").secretSyncFamily),
  SecretRotation: () => providerFor(require("./secret-rotation").secretRotationFamily),
  CertificateProfile: () => providerFor(require("./certificate-profile").certificateProfileFamily),
  AppConnectionSettings: () => providerFor(require("./app-connection-settings").appConnectionSettingsFamily),
};

const providers = new Map<FamilyName, dynamic.ResourceProvider>();

export function provider(name: FamilyName): dynamic.ResourceProvider {
  let p = providers.get(name);
  if (!p) {
    const make = families[name];
    if (!make) throw new Error(`unknown resource family ${name}`);
    p = make();
    providers.set(name, p);
  }
  return p;
}

/** The engine hands the stack config over here once per serialized provider. */
export function configure(req: dynamic.ConfigureRequest): void {
  configureSettings(req.config);
}
