import { providerModule } from "../provider-process";

/** What the serialized provider of every SecretSync requires in the provider process (`secretops-pulumi/runtime/SecretSync`). */
export = providerModule("SecretSync");
