import { providerModule } from "../provider-process";

/** What the serialized provider of every ProjectIdentityMembership requires in the provider process (`secretops-pulumi/runtime/ProjectIdentityMembership`). */
export = providerModule("ProjectIdentityMembership");
