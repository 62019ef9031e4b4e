import { providerModule } from "../provider-process";

/** What the serialized provider of every CertificatePolicy requires in the provider process (`secretops-pulumi/runtime/CertificatePolicy`). */
export = providerModule("CertificatePolicy");
