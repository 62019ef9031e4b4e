// A secret made outside the program, declared as `secretops import` writes it: its place and key,
// `adoptExisting` (unless the config `adopt` is false), and its value only when the stack's secret
// config `value` is set.
import * as pulumi from "@pulumi/pulumi";
import { Secret } from "secretops-pulumi";

const config = new pulumi.Config();
const value = config.getSecret("value");

const secret = new Secret("imported", {
  projectId: config.require("projectId"),
  environment: config.require("environment"),
  secretPath: config.require("secretPath"),
  secretName: config.require("secretName"),
  secretComment: config.get("secretComment"),
  ...(value && { secretValue: value }),
  adoptExisting: config.getBoolean("adopt") ?? true,
});

export const secretId = secret.id;
export const version = secret.version;
