import { providerModule } from "../provider-process";

/** What the serialized provider of every ProjectRole requires in the provider process (`secretops-pulumi/runtime/ProjectRole`). */
export = providerModule("ProjectRole");
