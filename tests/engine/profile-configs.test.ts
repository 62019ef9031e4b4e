import { changeCounts } from "./harness";
import { engineEnv, type EngineEnv } from "./lifecycle";

/**
 * A certificate profile's config object under the engine, for every enrollment type: the service
 * answers a create and a PATCH without the config objects (only its read of one profile and the
 * list carry them, docs/service-api.md §4) and stores defaults for fields not sent. After up, a
 * refresh and a preview show no change; a field set back to the service's default is applied.
 */
jest.setTimeout(10 * 60_000);

let env: EngineEnv;
beforeAll(async () => {
  env = await engineEnv();
});
afterAll(async () => {
  await env?.dispose();
});

const profile = (name: string, enrollment: Record<string, unknown>) => ({
  kind: "CertificateProfile",
  name,
  args: {
    projectId: env.emulator.summary.certificatePolicies[0]!.projectId,
    certificatePolicyId: env.emulator.summary.certificatePolicies[0]!.id,
    caId: env.emulator.summary.certificateAuthorities[0]!.id,
    slug: `configs-${name}`,
    ...enrollment,
  },
});

const profiles = (acmeSkipEab: boolean) => [
  profile("api", { enrollmentType: "api", apiConfig: { autoRenew: true, renewBeforeDays: 14 } }),
  profile("est", { enrollmentType: "est", estConfig: { passphrase: "est-canary-passphrase-0c1", caChain: "CHAIN" } }),
  profile("est-no-chain", { enrollmentType: "est", estConfig: { passphrase: "est-canary-passphrase-0c2" } }),
  profile("acme-bare", { enrollmentType: "acme" }),
  profile("acme", { enrollmentType: "acme", acmeConfig: { skipEabBinding: acmeSkipEab } }),
  profile("scep", {
    enrollmentType: "scep",
    scepConfig: { challengePassword: "scep-canary-challenge-77", includeCaCertInResponse: false },
  }),
  profile("scep-dynamic", { enrollmentType: "scep", scepConfig: { challengeType: "dynamic" } }),
];

test("every enrollment type: up, then refresh and preview show no change", async () => {
  await env.declare(profiles(true));
  const up = await env.t.stack.up();
  expect(changeCounts(up.summary.resourceChanges).create).toBe(8);
  const outputs = await env.t.stack.outputs();
  const acme = await env.client.certificateProfiles.get((outputs.acme!.value as { id: string }).id);
  expect(acme.acmeConfig).toMatchObject({ skipEabBinding: true, skipDnsOwnershipVerification: false });
  await env.t.stack.preview({ expectNoChanges: true });
  const refresh = await env.t.stack.refresh();
  expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 0, delete: 0 });
  await env.t.stack.preview({ expectNoChanges: true });
});

test("a config field set back to the service's default is sent, and then shows no change", async () => {
  await env.declare(profiles(false));
  const up = await env.t.stack.up();
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, replace: 0 });
  const outputs = await env.t.stack.outputs();
  const acme = await env.client.certificateProfiles.get((outputs.acme!.value as { id: string }).id);
  expect(acme.acmeConfig).toMatchObject({ skipEabBinding: false });
  await env.t.stack.refresh();
  await env.t.stack.preview({ expectNoChanges: true });
});
