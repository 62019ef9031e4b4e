// A policy pack for secretops resources, with the rules a security team would want. Run it, in a
// program with secretops-pulumi and @pulumi/policy installed, with (see README.md)
//   PATH="$PWD/node_modules/.bin:$PATH" pulumi preview --policy-pack node_modules/secretops-pulumi/examples/policy
// Plain JavaScript: the policy runner would compile TypeScript with the old ts-node it vendors.
//
// Every rule is mandatory and looks at a resource's inputs (`args.props`): for a dynamic resource
// those are the args the program passed (plus `__provider`). What "production" means:
//  - syncs and rotations: their `environment` slug is one of `productionEnvironments`
//    (policy config, default ["prod", "production"], compared case-insensitively);
//  - certificate profiles, which have no environment: the stack's name matches
//    `productionStackPattern` (policy config, a regular expression, default: a `prod` or
//    `production` segment, e.g. `prod`, `production`, `eu-prod`, but not `preprod`), or the
//    profile's `projectId` is one of `productionProjectIds` (policy config, default []).
const { PolicyPack } = require("@pulumi/policy");
const pulumi = require("@pulumi/pulumi");

const typeToken = (kind) => `pulumi-nodejs:dynamic/secretops:${kind}`;

/** A resource validation for one secretops resource type. */
function forType(kind, validate) {
  return (args, reportViolation) => {
    if (args.type === typeToken(kind)) return validate(args.props, args, reportViolation);
  };
}

const environmentsSchema = {
  productionEnvironments: {
    type: "array",
    items: { type: "string" },
    default: ["prod", "production"],
    description: "Environment slugs that are production.",
  },
};

function isProductionEnvironment(props, args) {
  const { productionEnvironments } = args.getConfig();
  const env = typeof props.environment === "string" ? props.environment.toLowerCase() : undefined;
  return env !== undefined && productionEnvironments.some((e) => e.toLowerCase() === env);
}

const DEFAULT_PRODUCTION_STACK_PATTERN = "(^|[-_./])prod(uction)?($|[-_./])";

/** Whether a certificate profile counts as production, and why (for the message). */
function productionProfile(props, args) {
  const { productionStackPattern, productionProjectIds } = args.getConfig();
  const stack = pulumi.getStack();
  if (new RegExp(productionStackPattern, "i").test(stack)) return `stack "${stack}" is production`;
  if (productionProjectIds.includes(props.projectId)) return `project ${props.projectId} is production`;
  return undefined;
}

/** A number of days from an input that may be given as a numeric string (the provider coerces it). */
const days = (v) => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN);

new PolicyPack("secretops-security", {
  enforcementLevel: "mandatory",
  policies: [
    {
      name: "rotation-interval-max-90-days",
      description: "Secret rotations rotate at least every 90 days (rotationInterval ≤ 90).",
      configSchema: {
        properties: {
          maxDays: { type: "integer", minimum: 1, default: 90, description: "The longest interval allowed." },
        },
      },
      validateResource: forType("SecretRotation", (props, args, reportViolation) => {
        const { maxDays } = args.getConfig();
        const interval = days(props.rotationInterval);
        if (!(interval <= maxDays))
          reportViolation(
            `SecretRotation "${args.name}": rotationInterval is ${JSON.stringify(props.rotationInterval)} days; it must be at most ${maxDays} days.`,
          );
      }),
    },
    {
      name: "sync-production-keeps-secrets",
      description:
        "Secret syncs from a production environment have secret deletion disabled (syncOptions.disableSecretDeletion: true).",
      configSchema: { properties: environmentsSchema },
      validateResource: forType("SecretSync", (props, args, reportViolation) => {
        if (!isProductionEnvironment(props, args)) return;
        if (props.syncOptions?.disableSecretDeletion !== true)
          reportViolation(
            `SecretSync "${args.name}" syncs the production environment "${props.environment}": syncOptions.disableSecretDeletion must be true (it is ${JSON.stringify(props.syncOptions?.disableSecretDeletion) ?? "unset"}), so the service never deletes keys at the destination.`,
          );
      }),
    },
    {
      name: "certificate-ttl-max-397-days",
      description: "Certificate profiles issue certificates valid for at most 397 days (defaults.ttlDays ≤ 397).",
      configSchema: {
        properties: { maxDays: { type: "integer", minimum: 1, default: 397, description: "The longest TTL allowed." } },
      },
      validateResource: forType("CertificateProfile", (props, args, reportViolation) => {
        const { maxDays } = args.getConfig();
        const ttl = props.defaults?.ttlDays;
        // Left out, the service applies the certificate policy's TTL, which this pack does not see.
        if (ttl === undefined || ttl === null) return;
        if (!(days(ttl) <= maxDays))
          reportViolation(
            `CertificateProfile "${args.name}": defaults.ttlDays is ${JSON.stringify(ttl)}; it must be at most ${maxDays} days.`,
          );
      }),
    },
    {
      name: "no-self-signed-in-production",
      description: 'Certificate profiles in production are CA-issued (no issuerType "self-signed").',
      configSchema: {
        properties: {
          productionStackPattern: {
            type: "string",
            default: DEFAULT_PRODUCTION_STACK_PATTERN,
            description: "A regular expression (case-insensitive) on the stack name: matching stacks are production.",
          },
          productionProjectIds: {
            type: "array",
            items: { type: "string" },
            default: [],
            description: "Service project ids whose profiles are production whatever the stack.",
          },
        },
      },
      validateResource: forType("CertificateProfile", (props, args, reportViolation) => {
        if (props.issuerType !== "self-signed") return;
        const why = productionProfile(props, args);
        if (why)
          reportViolation(
            `CertificateProfile "${args.name}": issuerType "self-signed" is not allowed in production (${why}); use issuerType "ca" with a caId.`,
          );
      }),
    },
    {
      name: "no-destructive-deletes-in-production",
      description:
        "Production syncs and rotations keep their secrets on delete (no removeSecrets: true, no deleteSecrets: true).",
      configSchema: { properties: environmentsSchema },
      validateResource: [
        forType("SecretSync", (props, args, reportViolation) => {
          if (isProductionEnvironment(props, args) && props.removeSecrets === true)
            reportViolation(
              `SecretSync "${args.name}" syncs the production environment "${props.environment}": removeSecrets must not be true (it would delete the synced secrets at the destination on delete).`,
            );
        }),
        forType("SecretRotation", (props, args, reportViolation) => {
          if (isProductionEnvironment(props, args) && props.deleteSecrets === true)
            reportViolation(
              `SecretRotation "${args.name}" writes to the production environment "${props.environment}": deleteSecrets must not be true (it would delete the rotated secrets on delete).`,
            );
        }),
      ],
    },
  ],
});
