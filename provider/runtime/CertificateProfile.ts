import { providerModule } from "../provider-process";

/** What the serialized provider of every CertificateProfile requires in the provider process (`secretops-pulumi/runtime/CertificateProfile`). */
export = providerModule("CertificateProfile");
