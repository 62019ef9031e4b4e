import { providerModule } from "../provider-process";

/** What the serialized provider of every SecretRotation requires in the provider process (`secretops-pulumi/runtime/SecretRotation`). */
export = providerModule("SecretRotation");
