import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/**
 * The service's `services/app-connection/stripe/stripe-connection-schemas.ts`. The service
 * exchanges the OAuth sign-in's `code` and keeps only the Stripe account's id, which it returns as
 * `credentials.accountId` (the emulator returns no credential field).
 */
export const stripe = connectionKind({
  app: "stripe",
  label: "Stripe",
  family: "Payments platform",
  origin: { folder: "services/app-connection/stripe/" },
  methods: {
    oauth: {
      credentials: strictObject({
        /** The authorization code of the Stripe Connect OAuth sign-in, which the service exchanges, at most 500 characters: secret. */
        code: strMax(500),
      }),
      secretFields: ["code"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { oauth: { code: "ac_emulator-stripe-code" } },
});
