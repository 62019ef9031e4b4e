import { providerModule } from "../provider-process";

/** What the serialized provider of every SecretFolder requires in the provider process (`secretops-pulumi/runtime/SecretFolder`). */
export = providerModule("SecretFolder");
