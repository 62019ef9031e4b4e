// A Secret whose value holds references: `${OTHER}` (a secret of the same folder, made here) and
// `${prod.app.KEY}` (folder /app of prod, made outside). The package reads values as written
// (expandSecretReferences=false), so the references are never drift.
import * as pulumi from "@pulumi/pulumi";
import { Secret } from "secretops-pulumi";

const config = new pulumi.Config();
const place = {
  projectId: config.require("projectId"),
  environment: "staging",
  secretPath: "/",
};

const other = new Secret("other", { ...place, secretName: "OTHER", secretValue: "other-value" });

const withReferences = new Secret(
  "with-references",
  { ...place, secretName: "WITH_REFERENCES", secretValue: "${OTHER}:${prod.app.KEY}" },
  { dependsOn: [other] },
);

export const secretId = withReferences.id;
