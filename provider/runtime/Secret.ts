import { providerModule } from "../provider-process";

/** What the serialized provider of every Secret requires in the provider process (`secretops-pulumi/runtime/Secret`). */
export = providerModule("Secret");
