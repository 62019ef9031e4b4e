import { providerModule } from "../provider-process";

/** What the serialized provider of every ProjectEnvironment requires in the provider process (`secretops-pulumi/runtime/ProjectEnvironment`). */
export = providerModule("ProjectEnvironment");
