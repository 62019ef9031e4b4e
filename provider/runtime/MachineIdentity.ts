import { providerModule } from "../provider-process";

/** What the serialized provider of every MachineIdentity requires in the provider process (`secretops-pulumi/runtime/MachineIdentity`). */
export = providerModule("MachineIdentity");
