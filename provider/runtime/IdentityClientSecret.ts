import { providerModule } from "../provider-process";

/** What the serialized provider of every IdentityClientSecret requires in the provider process (`secretops-pulumi/runtime/IdentityClientSecret`). */
export = providerModule("IdentityClientSecret");
