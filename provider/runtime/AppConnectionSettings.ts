import { providerModule } from "../provider-process";

/** What the serialized provider of every AppConnectionSettings requires in the provider process (`secretops-pulumi/runtime/AppConnectionSettings`). */
export = providerModule("AppConnectionSettings");
