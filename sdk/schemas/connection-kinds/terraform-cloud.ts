import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/terraform-cloud/terraform-cloud-connection-schemas.ts`. */
export const terraformCloud = connectionKind({
  app: "terraform-cloud",
  label: "Terraform Cloud",
  family: "Infrastructure-as-code platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Terraform Cloud (HCP Terraform) API token: secret. */
        apiToken: str,
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-terraform-cloud-token" } },
});
