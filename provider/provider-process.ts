import type * as dynamic from "@pulumi/pulumi/dynamic";
import { configure as configureSettings } from "./config";
import type { ResourceDefinition, ResourceType } from "./definition";
import { dynamicProvider } from "./dynamic-provider";
import { forTheEngine } from "./engine-voice";

/**
 * The provider process's entry point (`secretops-pulumi/runtime`), loaded by the serialized
 * provider of every resource. A type's definition loads on first use.
 */

const definitions: Record<ResourceType, () => ResourceDefinition<{ id: string }>> = {
  SecretSync: () => require("./secret-sync").secretSyncDefinition,
  SecretRotation: () => require("./secret-rotation").secretRotationDefinition,
  CertificateProfile: () => require("./certificate-profile").certificateProfileDefinition,
  AppConnection: () => require("./app-connection").appConnectionDefinition,
  AppConnectionSettings: () => require("./app-connection-settings").appConnectionSettingsDefinition,
  Project: () => require("./project").projectDefinition,
  ProjectEnvironment: () => require("./project-environment").projectEnvironmentDefinition,
  SecretFolder: () => require("./secret-folder").secretFolderDefinition,
  Secret: () => require("./secret").secretDefinition,
  CertificateAuthority: () => require("./certificate-authority").certificateAuthorityDefinition,
  CertificatePolicy: () => require("./certificate-policy").certificatePolicyDefinition,
  MachineIdentity: () => require("./machine-identity").machineIdentityDefinition,
  IdentityAuth: () => require("./identity-auth").identityAuthDefinition,
  IdentityClientSecret: () => require("./identity-client-secret").identityClientSecretDefinition,
  ProjectRole: () => require("./project-role").projectRoleDefinition,
  ProjectIdentityMembership: () => require("./project-identity-membership").projectIdentityMembershipDefinition,
};

/** A type's definition (the native provider's schema and secrets read it too). */
export function definition(type: ResourceType): ResourceDefinition<{ id: string }> {
  const load = definitions[type];
  if (!load) throw new Error(`unknown resource type ${type}`);
  return load();
}

const providers = new Map<ResourceType, dynamic.ResourceProvider>();

export function provider(type: ResourceType): dynamic.ResourceProvider {
  let p = providers.get(type);
  if (!p) {
    p = forTheEngine(dynamicProvider(definition(type)));
    providers.set(type, p);
  }
  return p;
}

/** The engine hands the stack config over here once per serialized provider. */
export function configure(req: dynamic.ConfigureRequest): void {
  configureSettings(req.config);
}

/** The methods of a type's provider, as a module's exports: `secretops-pulumi/runtime/<type>`. */
export function providerModule(type: ResourceType): Required<dynamic.ResourceProvider> {
  return {
    configure: async (req) => configure(req),
    check: (olds, news) => provider(type).check!(olds, news),
    diff: (id, olds, news) => provider(type).diff!(id, olds, news),
    create: (inputs) => provider(type).create(inputs),
    read: (id, props) => provider(type).read!(id, props),
    update: (id, olds, news) => provider(type).update!(id, olds, news),
    delete: (id, props) => provider(type).delete!(id, props),
  };
}
