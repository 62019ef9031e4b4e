import { providerModule } from "../provider-process";

/** What the serialized provider of every IdentityAuth requires in the provider process (`secretops-pulumi/runtime/IdentityAuth`). */
export = providerModule("IdentityAuth");
