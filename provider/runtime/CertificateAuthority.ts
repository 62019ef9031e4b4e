import { providerModule } from "../provider-process";

/** What the serialized provider of every CertificateAuthority requires in the provider process (`secretops-pulumi/runtime/CertificateAuthority`). */
export = providerModule("CertificateAuthority");
