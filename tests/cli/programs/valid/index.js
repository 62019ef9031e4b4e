// Valid secretops resources, one reading a value from stack config and one a secret arg, for `secretops check`.
const pulumi = require("@pulumi/pulumi");
const secretops = require("secretops-pulumi");

const config = new pulumi.Config();
const projectId = config.require("projectId");

const profile = new secretops.CertificateProfile("profile", {
  projectId,
  certificatePolicyId: "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98",
  slug: "api-certs",
  issuerType: "self-signed",
  enrollmentType: "api",
  apiConfig: { autoRenew: true, renewBeforeDays: 10 },
});

new secretops.CertificateProfile("scep", {
  projectId: profile.projectId,
  certificatePolicyId: "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98",
  caId: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d",
  slug: "scep-certs",
  enrollmentType: "scep",
  scepConfig: { challengePassword: pulumi.secret("a-long-enough-password") },
});
