import { providerModule } from "../provider-process";

/** What the serialized provider of every AppConnection requires in the provider process (`secretops-pulumi/runtime/AppConnection`). */
export = providerModule("AppConnection");
