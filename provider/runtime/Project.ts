import { providerModule } from "../provider-process";

/** What the serialized provider of every Project requires in the provider process (`secretops-pulumi/runtime/Project`). */
export = providerModule("Project");
