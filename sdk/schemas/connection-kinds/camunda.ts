import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/camunda/camunda-connection-schema.ts`. */
export const camunda = connectionKind({
  app: "camunda",
  label: "Camunda",
  family: "Process orchestration platform",
  origin: "service-enum",
  methods: {
    "client-credentials": {
      credentials: strictObject({
        /** The Camunda API client's client id. */
        clientId: str,
        /** That API client's client secret: secret. */
        clientSecret: str,
      }),
      secretFields: ["clientSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "client-credentials": { clientId: "emulator-camunda-client", clientSecret: "emulator-camunda-secret" } },
});
