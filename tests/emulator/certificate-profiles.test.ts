import {
  CertificateProfileEnvelope,
  CertificateProfileListEnvelope,
  apiPaths,
  type CertificateProfile,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import {
  FX,
  expect422,
  expectError,
  expectIncreasing,
  start,
  uniq,
  withClockStopped,
  expectNotMember,
  expectOtherOrg,
  type Api,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const base = apiPaths.certificateProfiles;
const PASSPHRASE = "est-canary-passphrase-5f1e";
const CHALLENGE = "scep-canary-challenge-9a7c";

const defaults = {
  ttlDays: 90,
  commonName: "svc.example.com",
  keyAlgorithm: "RSA_2048",
  signatureAlgorithm: "RSA-SHA256",
  keyUsages: ["digital_signature"],
  extendedKeyUsages: ["client_auth"],
  organization: "Emulator",
  organizationalUnit: "Platform",
  country: "US",
  state: "CA",
  locality: "SF",
  basicConstraints: { isCA: false, pathLength: 0 },
};

function body(extra: Record<string, unknown> = {}) {
  return {
    projectId: FX.pkiProjectId,
    certificatePolicyId: FX.policyId,
    caId: FX.internalCaId,
    slug: uniq("profile"),
    enrollmentType: "api",
    apiConfig: { autoRenew: true, renewBeforeDays: 7 },
    ...extra,
  };
}

/**
 * Creates a profile and reads it back by id: only that read and the list carry the config objects
 * (docs/service-api.md §4); the create's answer is the profile's row alone.
 */
async function create(extra: Record<string, unknown> = {}): Promise<CertificateProfile> {
  const res = await api.post(base, body(extra));
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  expectNoConfigObjects(res.body.certificateProfile);
  return read(res.body.certificateProfile.id);
}

async function read(id: string): Promise<CertificateProfile> {
  return CertificateProfileEnvelope.parse((await api.get(`${base}/${id}`)).body).certificateProfile;
}

/** Create, update, delete and the read by slug answer with the profile's row: config ids, no config objects. */
function expectNoConfigObjects(p: Record<string, unknown>) {
  for (const key of ["estConfig", "apiConfig", "acmeConfig", "scepConfig"]) expect(p).not.toHaveProperty(key);
  expect(Object.keys(p)).toEqual(
    expect.arrayContaining(["estConfigId", "apiConfigId", "acmeConfigId", "scepConfigId"]),
  );
}

describe("create per enrollment type", () => {
  test("api: issuerType defaults to ca; the read by id returns apiConfig with its id", async () => {
    const p = await create({ description: "api profile", defaults });
    expect(p).toMatchObject({
      enrollmentType: "api",
      issuerType: "ca",
      caId: FX.internalCaId,
      certificatePolicyId: FX.policyId,
      description: "api profile",
      apiConfig: { autoRenew: true, renewBeforeDays: 7 },
      estConfigId: null,
      acmeConfigId: null,
      scepConfigId: null,
      externalConfigs: null,
      defaults,
    });
    expect(p.apiConfigId).toMatch(/^[0-9a-f-]{36}$/);
    // The service's router declares apiConfig { id, autoRenew, renewBeforeDays? } and its DAL sets
    // id: apiConfigId; an absent config object is an absent key, not null.
    expect(p.apiConfig!.id).toBe(p.apiConfigId);
    expect(p).not.toHaveProperty("estConfig");
    expect(p.createdAt).toBe(p.updatedAt);
    const d = await create({ apiConfig: {} });
    expect(d.apiConfig).toEqual({ id: d.apiConfigId, autoRenew: false });
    expect(d.defaults).toBeNull();
  });

  test("est: the passphrase is never returned", async () => {
    const res = await api.post(
      base,
      body({ enrollmentType: "est", apiConfig: undefined, estConfig: { passphrase: PASSPHRASE, caChain: "CHAIN" } }),
    );
    expect(res.status).toBe(200);
    const p = await read(res.body.certificateProfile.id);
    expect(p.estConfig).toEqual({ id: p.estConfigId, disableBootstrapCaValidation: false, caChain: "CHAIN" });
    expect(p.estConfigId).toBeTruthy();
    // No chain stored reads as "".
    const bare = await create({ enrollmentType: "est", apiConfig: undefined, estConfig: { passphrase: PASSPHRASE } });
    expect(bare.estConfig).toEqual({ id: bare.estConfigId, disableBootstrapCaValidation: false, caChain: "" });
    expect(JSON.stringify(res.body)).not.toContain(PASSPHRASE);
    expect(JSON.stringify((await api.get(`${base}/${p.id}`)).body)).not.toContain(PASSPHRASE);
    expect(JSON.stringify((await api.get(base, { query: { projectId: FX.pkiProjectId } })).body)).not.toContain(
      PASSPHRASE,
    );
    expect422(
      await api.post(base, body({ enrollmentType: "est", apiConfig: undefined, estConfig: { passphrase: "" } })),
      ["estConfig", "passphrase"],
    );
  });

  test("scep: the challenge password is never returned", async () => {
    const res = await api.post(
      base,
      body({
        enrollmentType: "scep",
        apiConfig: undefined,
        scepConfig: { challengePassword: CHALLENGE, includeCaCertInResponse: true },
      }),
    );
    expect(res.status).toBe(200);
    const p = await read(res.body.certificateProfile.id);
    // What the service stores when not sent, and what it computes.
    expect(p.scepConfig).toEqual({
      id: p.scepConfigId,
      challengeType: "static",
      includeCaCertInResponse: true,
      allowCertBasedRenewal: true,
      scepEndpointUrl: `${emu.url}/scep/${p.id}/pkiclient.exe`,
    });
    expect(JSON.stringify(res.body)).not.toContain(CHALLENGE);
    expect(JSON.stringify((await api.get(`${base}/${p.id}`)).body)).not.toContain(CHALLENGE);
    // A dynamic challenge needs no password; its limits default to 60 minutes and 100 pending.
    const dynamic = await create({
      enrollmentType: "scep",
      apiConfig: undefined,
      scepConfig: { challengeType: "dynamic" },
    });
    expect(dynamic.scepConfig).toMatchObject({
      challengeType: "dynamic",
      dynamicChallengeExpiryMinutes: 60,
      dynamicChallengeMaxPending: 100,
      challengeEndpointUrl: `${emu.url}/scep/${dynamic.id}/challenge`,
    });
    expect422(
      await api.post(
        base,
        body({ enrollmentType: "scep", apiConfig: undefined, scepConfig: { challengePassword: "short" } }),
      ),
      ["scepConfig", "challengePassword"],
    );
  });

  test("acme: no config needed, and none made without one; directory URL computed", async () => {
    const p = await create({ enrollmentType: "acme", apiConfig: undefined });
    expect(p.acmeConfigId).toBeNull();
    expect(p).not.toHaveProperty("acmeConfig");
    const q = await create({ enrollmentType: "acme", apiConfig: undefined, acmeConfig: { skipEabBinding: true } });
    expect(q.acmeConfig).toEqual({
      id: q.acmeConfigId,
      skipEabBinding: true,
      skipDnsOwnershipVerification: false,
      directoryUrl: `${emu.url}/api/v1/pki/acme/profiles/${q.id}/directory`,
    });
    expect422(
      await api.post(
        base,
        body({
          enrollmentType: "acme",
          apiConfig: undefined,
          acmeConfig: { skipEabBinding: true, skipDnsOwnershipVerification: true },
        }),
      ),
      ["acmeConfig"],
    );
  });

  test("a required config object missing is 403 (service level); a mismatched one is 422", async () => {
    expectError(
      await api.post(base, body({ enrollmentType: "est", apiConfig: undefined })),
      403,
      "ForbiddenError",
      "EST enrollment requires EST configuration",
    );
    expectError(
      await api.post(base, body({ apiConfig: undefined })),
      403,
      "ForbiddenError",
      "API enrollment requires API configuration",
    );
    expectError(
      await api.post(base, body({ enrollmentType: "scep", apiConfig: undefined })),
      403,
      "ForbiddenError",
      "SCEP enrollment requires SCEP configuration",
    );
    expect422(
      await api.post(base, body({ estConfig: { passphrase: "x" } })),
      ["estConfig"],
      'is not allowed with enrollmentType "api"',
    );
  });
});

describe("issuer rules", () => {
  test("ca needs a caId; self-signed forbids it and allows only api", async () => {
    expect422(await api.post(base, body({ caId: undefined })), ["caId"]);
    expect422(await api.post(base, body({ issuerType: "self-signed" })), ["caId"]);
    expect422(
      await api.post(
        base,
        body({ issuerType: "self-signed", caId: undefined, enrollmentType: "acme", apiConfig: undefined }),
      ),
      ["enrollmentType"],
    );
    const p = await create({ issuerType: "self-signed", caId: undefined });
    expect(p).toMatchObject({ issuerType: "self-signed", caId: null });
  });

  test("caId must be a CA of the project and the policy a policy of the project (404)", async () => {
    expectError(
      await api.post(base, body({ caId: FX.restrictedCaId })),
      404,
      "NotFound",
      new RegExp(FX.restrictedCaId),
    );
    expectError(await api.post(base, body({ caId: "0f0f0f0f-0000-4000-8000-00000000c0aa" })), 404, "NotFound");
    expectError(
      await api.post(base, body({ certificatePolicyId: FX.restrictedPolicyId })),
      404,
      "NotFound",
      new RegExp(FX.restrictedPolicyId),
    );
    expect422(await api.post(base, body({ certificatePolicyId: "nope" })), ["certificatePolicyId"]);
  });

  // The service's validateExternalConfigs (services/certificate-profile/certificate-profile-service.ts).
  test("externalConfigs only with an external CA", async () => {
    expectError(
      await api.post(base, body({ externalConfigs: { template: "WebServer" } })),
      403,
      "ForbiddenError",
      "External configs can only be specified for external Certificate Authorities",
    );
    const p = await create({ caId: FX.externalCaId, externalConfigs: { template: "WebServer" } });
    expect(p.externalConfigs).toEqual({ template: "WebServer" });
    const patched = await api.patch(`${base}/${p.id}`, { externalConfigs: { template: "Other" } });
    expect(patched.body.certificateProfile.externalConfigs).toEqual({ template: "Other" });
  });
});

describe("field rules (docs/api-spec.md §8)", () => {
  test("slug: 1 to 255, ^[a-z0-9-]+$", async () => {
    const s255 = "s".repeat(255);
    expect((await api.post(base, body({ slug: s255 }))).status).toBe(200);
    expect422(await api.post(base, body({ slug: `${s255}s` })), ["slug"]);
    expect422(await api.post(base, body({ slug: "" })), ["slug"]);
    expect422(await api.post(base, body({ slug: "Upper" })), ["slug"]);
    expect((await api.post(base, body({ slug: "-leading-and-trailing-" }))).status).toBe(200);
  });

  test("description: at most 1000", async () => {
    expect((await api.post(base, body({ description: "d".repeat(1000) }))).status).toBe(200);
    expect422(
      await api.post(base, body({ description: "d".repeat(1001) })),
      ["description"],
      "must be at most 1000 characters",
    );
  });

  test("defaults: enums and positive ttl", async () => {
    expect422(await api.post(base, body({ defaults: { keyAlgorithm: "RSA_1024" } })), ["defaults", "keyAlgorithm"]);
    expect422(await api.post(base, body({ defaults: { ttlDays: 0 } })), ["defaults", "ttlDays"]);
    expect422(await api.post(base, body({ defaults: { keyUsages: ["sign_everything"] } })), [
      "defaults",
      "keyUsages",
      0,
    ]);
    expect422(await api.post(base, body({ apiConfig: { renewBeforeDays: 31 } })), ["apiConfig", "renewBeforeDays"]);
    expect422(await api.post(base, body({ enrollmentType: "ssh" })), ["enrollmentType"]);
  });

  test("slugs are unique per project (403)", async () => {
    const slug = uniq("dup");
    await create({ slug });
    expectError(
      await api.post(base, body({ slug })),
      403,
      "ForbiddenError",
      "Certificate profile with this name already exists in project",
    );
    const other = await create();
    expectError(
      await api.patch(`${base}/${other.id}`, { slug }),
      403,
      "ForbiddenError",
      "Certificate profile with this name already exists in project",
    );
  });
});

describe("reads, PATCH and DELETE", () => {
  test("read by id and by slug; list with filters, totalCount and paging, newest first", async () => {
    const p = await create({ slug: uniq("findme") });
    const bySlug = (await api.get(`${base}/slug/${p.slug}`, { query: { projectId: FX.pkiProjectId } })).body
      .certificateProfile;
    expectNoConfigObjects(bySlug);
    const { apiConfig: _config, ...row } = p;
    expect(CertificateProfileEnvelope.parse({ certificateProfile: bySlug }).certificateProfile).toEqual(row);
    expect422(await api.get(`${base}/slug/${p.slug}`), ["projectId"]);
    expectError(
      await api.get(`${base}/slug/no-such-profile`, { query: { projectId: FX.pkiProjectId } }),
      404,
      "NotFound",
      "Certificate profile not found",
    );

    const tag = uniq("page");
    for (let i = 0; i < 5; i++) await create({ slug: `${tag}-${i}` });
    const all = CertificateProfileListEnvelope.parse(
      (await api.get(base, { query: { projectId: FX.pkiProjectId, search: tag } })).body,
    );
    expect(all.totalCount).toBe(5);
    // Newest first (the service orders by createdAt desc), each with its config object.
    expect(all.certificateProfiles.map((x) => x.slug)).toEqual([4, 3, 2, 1, 0].map((i) => `${tag}-${i}`));
    expect(all.certificateProfiles[0]!.apiConfig).toMatchObject({ id: all.certificateProfiles[0]!.apiConfigId });
    const page = CertificateProfileListEnvelope.parse(
      (await api.get(base, { query: { projectId: FX.pkiProjectId, search: tag, offset: 3, limit: 1 } })).body,
    );
    expect(page).toMatchObject({ totalCount: 5, certificateProfiles: [{ slug: `${tag}-1` }] });
    const acme = CertificateProfileListEnvelope.parse(
      (await api.get(base, { query: { projectId: FX.pkiProjectId, enrollmentType: "acme" } })).body,
    );
    expect(acme.certificateProfiles.every((x) => x.enrollmentType === "acme")).toBe(true);
    const byCa = CertificateProfileListEnvelope.parse(
      (await api.get(base, { query: { projectId: FX.pkiProjectId, caId: FX.externalCaId, limit: 100 } })).body,
    );
    expect(byCa.certificateProfiles.every((x) => x.caId === FX.externalCaId)).toBe(true);
    const selfSigned = CertificateProfileListEnvelope.parse(
      (await api.get(base, { query: { projectId: FX.pkiProjectId, issuerType: "self-signed" } })).body,
    );
    expect(selfSigned.certificateProfiles.every((x) => x.issuerType === "self-signed")).toBe(true);
    expect422(await api.get(base, { query: { projectId: FX.pkiProjectId, limit: 101 } }), ["limit"]);
    expect422(await api.get(base), ["projectId"]);
  });

  test("list search matches the slug or the description, case-insensitively, as ILIKE '%search%'", async () => {
    const tag = uniq("desc");
    const bySlug = await create({ slug: `${tag}-slug` });
    const byDescription = await create({ description: `Issued for ${tag.toUpperCase()} hosts` });
    await create({ description: "unrelated" });
    const search = async (s: string) =>
      CertificateProfileListEnvelope.parse(
        (await api.get(base, { query: { projectId: FX.pkiProjectId, search: s } })).body,
      )
        .certificateProfiles.map((x) => x.id)
        .sort();
    expect(await search(tag)).toEqual([bySlug.id, byDescription.id].sort());
    expect(await search(`for ${tag} h`)).toEqual([byDescription.id]);
    // `_` is ILIKE's one-character wildcard
    expect(await search(`for_${tag}`)).toEqual([byDescription.id]);
  });

  test("PATCH updates a config object only if the profile has one", async () => {
    const p = await create();
    const url = `${base}/${p.id}`;
    const res = await api.patch(url, {
      apiConfig: { autoRenew: false, renewBeforeDays: 3 },
      description: "x",
      defaults,
    });
    expectNoConfigObjects(res.body.certificateProfile);
    const upd = await read(p.id);
    expect(upd).toMatchObject({
      apiConfig: { id: p.apiConfigId, autoRenew: false, renewBeforeDays: 3 },
      apiConfigId: p.apiConfigId,
      description: "x",
      defaults,
    });
    expectIncreasing([p.updatedAt, upd.updatedAt]);
    // the profile has no ACME config: the object is ignored
    await api.patch(url, { acmeConfig: { skipEabBinding: true } });
    const ignored = await read(p.id);
    expect(ignored.acmeConfigId).toBeNull();
    expect(ignored).not.toHaveProperty("acmeConfig");
    expect((await api.patch(url, { defaults: null })).body.certificateProfile.defaults).toBeNull();
    expect422(await api.patch(url, { enrollmentType: "api", estConfig: { passphrase: "x" } }), ["estConfig"]);
    expect422(await api.patch(url, { slug: "Bad Slug" }), ["slug"]);
    expect422(await api.patch(url, { description: "d".repeat(1001) }), ["description"]);
  });

  // The service's updateProfile (services/certificate-profile/certificate-profile-service.ts):
  // only create requires a config; PATCH updates the config object the profile already has and
  // never creates one, also when enrollmentType changes.
  test("PATCH enrollmentType needs no config and creates none; a config updates the profile's own", async () => {
    const p = await create();
    const url = `${base}/${p.id}`;
    const est = CertificateProfileEnvelope.parse(
      (await api.patch(url, { enrollmentType: "est", estConfig: { passphrase: PASSPHRASE } })).body,
    ).certificateProfile;
    expect(est).toMatchObject({ enrollmentType: "est", estConfigId: null, apiConfigId: p.apiConfigId });
    expect(JSON.stringify(est)).not.toContain(PASSPHRASE);
    const back = CertificateProfileEnvelope.parse((await api.patch(url, { enrollmentType: "api" })).body);
    expect(back.certificateProfile).toMatchObject({ enrollmentType: "api", apiConfigId: p.apiConfigId });

    const withEst = await create({
      slug: "has-est",
      enrollmentType: "est",
      apiConfig: undefined,
      estConfig: { passphrase: PASSPHRASE },
    });
    const estUrl = `${base}/${withEst.id}`;
    await api.patch(estUrl, { estConfig: { passphrase: "new-pass", disableBootstrapCaValidation: true } });
    const est2 = await read(withEst.id);
    expect(est2.estConfigId).toBe(withEst.estConfigId);
    expect(est2.estConfig).toEqual({ id: withEst.estConfigId, disableBootstrapCaValidation: true, caChain: "" });
    // The service merges a PATCH into the stored config: a field not sent keeps its value.
    const withChain = await create({
      enrollmentType: "est",
      apiConfig: undefined,
      estConfig: { passphrase: PASSPHRASE, caChain: "CHAIN" },
    });
    await api.patch(`${base}/${withChain.id}`, { estConfig: { disableBootstrapCaValidation: true } });
    expect((await read(withChain.id)).estConfig).toMatchObject({
      caChain: "CHAIN",
      disableBootstrapCaValidation: true,
    });
    const acme = await create({ enrollmentType: "acme", apiConfig: undefined, acmeConfig: { skipEabBinding: true } });
    await api.patch(`${base}/${acme.id}`, { acmeConfig: { skipDnsOwnershipVerification: false } });
    expect((await read(acme.id)).acmeConfig).toMatchObject({
      skipEabBinding: true,
      skipDnsOwnershipVerification: false,
    });
  });

  test("the PATCH keeps the stored CA: a profile with one cannot turn self-signed, nor one without turn ca", async () => {
    const p = await create({ caId: FX.externalCaId, externalConfigs: { template: "T" } });
    const url = `${base}/${p.id}`;
    expectError(
      await api.patch(url, { issuerType: "self-signed", projectId: FX.restrictedProjectId, caId: FX.internalCaId }),
      403,
      "ForbiddenError",
      "Self-signed issuer type cannot have a Certificate Authority",
    );
    const stored = CertificateProfileEnvelope.parse((await api.get(url)).body).certificateProfile;
    expect(stored).toMatchObject({ issuerType: "ca", caId: FX.externalCaId, projectId: FX.pkiProjectId });

    const ss = await create({ slug: "self-signed", issuerType: "self-signed", caId: undefined });
    const ssUrl = `${base}/${ss.id}`;
    expectError(
      await api.patch(ssUrl, { issuerType: "ca" }),
      403,
      "ForbiddenError",
      "CA issuer type requires a Certificate Authority to be selected",
    );
    expectError(
      await api.patch(ssUrl, { enrollmentType: "acme" }),
      403,
      "ForbiddenError",
      "Self-signed issuer type only supports API enrollment",
    );
    expectError(
      await api.patch(ssUrl, { externalConfigs: { template: "T" } }),
      403,
      "ForbiddenError",
      "External configs can only be specified when a Certificate Authority is selected",
    );
  });

  test("updatedAt moves on every PATCH, even within one millisecond", async () => {
    const times = await withClockStopped(async () => {
      const p = await create();
      const url = `${base}/${p.id}`;
      const a = (await api.patch(url, { description: "a" })).body.certificateProfile;
      const b = (await api.patch(url, { description: "b" })).body.certificateProfile;
      expect([a.createdAt, b.createdAt]).toEqual([p.createdAt, p.createdAt]);
      return [p.updatedAt, a.updatedAt, b.updatedAt];
    });
    expectIncreasing(times);
  });

  test("DELETE returns the profile's row; projects are checked", async () => {
    const p = await create();
    const del = await api.delete(`${base}/${p.id}`);
    expectNoConfigObjects(del.body.certificateProfile);
    const { apiConfig: _config, ...row } = p;
    expect(CertificateProfileEnvelope.parse(del.body).certificateProfile).toEqual(row);
    expectError(await api.get(`${base}/${p.id}`), 404, "NotFound", "Certificate profile not found");
    expectError(await api.delete(`${base}/${p.id}`), 404, "NotFound", "Certificate profile not found");
    expectError(
      await api.patch(`${base}/${p.id}`, { description: "x" }),
      404,
      "NotFound",
      "Certificate profile not found",
    );
    expectNotMember(
      await api.post(
        base,
        body({
          projectId: FX.restrictedPkiProjectId,
          caId: FX.restrictedCaId,
          certificatePolicyId: FX.restrictedPolicyId,
        }),
      ),
    );
    expectOtherOrg(await api.get(base, { query: { projectId: FX.otherOrgProjectId } }));
    expect422(await api.get(`${base}/not-a-uuid`), ["id"]);
  });
});
