import {
  CertificatePolicyEnvelope,
  CertificatePolicyListEnvelope,
  InternalCaListSchema,
  InternalCaSchema,
  apiPaths,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { FX, expect422, expectError, start, uniq, expectNotMember, type Api, type Json } from "./helpers";
import { auditOf } from "./tree-objects";

/**
 * Internal certificate authorities (docs/service-api.md §13): a root active at once, the
 * intermediate's CSR, signature and import, status changes and deletes; and certificate policies
 * (§14): names made unique, updates, the list, and the delete refused while a profile uses one.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const cas = apiPaths.internalCertificateAuthorities;
const policies = apiPaths.certificatePolicies;

async function createCa(configuration: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Json> {
  const res = await api.post(cas, { projectId: FX.pkiProjectId, name: uniq("ca"), configuration, ...extra });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return InternalCaSchema.parse(res.body) && res.body;
}

const root = (extra: Record<string, unknown> = {}) =>
  createCa({ type: "root", commonName: "Root CA", organization: "Emulator", notAfter: "2040-01-01T00:00:00Z" }, extra);
const intermediate = (extra: Record<string, unknown> = {}) =>
  createCa({ type: "intermediate", commonName: "Intermediate CA", ...extra });

const read = async (id: string) => (await api.get(`${cas}/${id}`)).body;
const csrOf = async (id: string): Promise<string> => (await api.get(`${cas}/${id}/csr`)).body.csr;
const sign = (issuerId: string, csr: string, extra: Record<string, unknown> = {}) =>
  api.post(`${cas}/${issuerId}/sign-intermediate`, { csr, notAfter: "2035-01-01T00:00:00Z", ...extra });

describe("internal certificate authorities", () => {
  test("a root with an end of validity is active with its certificate; the answer is the CA itself", async () => {
    const ca = await root();
    expect(ca).toMatchObject({ type: "internal", projectId: FX.pkiProjectId, status: "active" });
    const got = await read(ca.id);
    expect(got).toMatchObject({
      id: ca.id,
      status: "active",
      configuration: {
        type: "root",
        commonName: "Root CA",
        organization: "Emulator",
        dn: "O=Emulator, CN=Root CA",
        notAfter: "2040-01-01T00:00:00Z",
        maxPathLength: -1,
        keyAlgorithm: "RSA_2048",
        serialNumber: expect.stringMatching(/^[0-9a-f]{32}$/),
        activeCaCertId: expect.any(String),
      },
    });
    for (const hidden of ["signingKey", "certificate", "certificateChain"]) expect(got).not.toHaveProperty(hidden);
    expectError(await api.get(`${cas}/${ca.id}/csr`), 400, "BadRequest", "Root CA cannot generate CSR");
    const [event] = await auditOf(api, FX.pkiProjectId, "create-certificate-authority");
    expect(event.event.metadata).toMatchObject({ caId: ca.id, dn: "O=Emulator, CN=Root CA" });
  });

  test("the create answers the status of the body; the reads the stored one", async () => {
    const inter = await intermediate();
    expect(inter.status).toBe("active");
    expect((await read(inter.id)).status).toBe("pending-certificate");
    const noEnd = await createCa({ type: "root", commonName: "No end" }, { status: "disabled" });
    expect(noEnd.status).toBe("disabled");
    expect((await read(noEnd.id)).status).toBe("pending-certificate");
    expect((await read(noEnd.id)).configuration.serialNumber).toBeNull();
  });

  test("an intermediate: CSR, signed by an active root, imported, then active and able to sign", async () => {
    const parent = await root();
    const inter = await intermediate({ parentCaId: parent.id });
    const csr = await csrOf(inter.id);
    expect(csr).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE REQUEST-----$/);
    expect(await csrOf(inter.id)).toBe(csr);
    expectError(await sign(inter.id, csr), 400, "BadRequest", "CA does not have a certificate installed");

    // Its certificate may start later than the parent's, not earlier.
    const notBefore = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000).toISOString();
    const signed = await sign(parent.id, csr, { notBefore, maxPathLength: 1 });
    expect(signed.status).toBe(200);
    const { certificate, certificateChain, issuingCaCertificate, serialNumber } = signed.body;
    expect(certificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----$/);
    expect(certificateChain).toBe(issuingCaCertificate);
    expect(issuingCaCertificate).toMatch(/^-----BEGIN CERTIFICATE-----/);

    const res = await api.post(`${cas}/${inter.id}/import-certificate`, { certificate, certificateChain });
    expect(res.body).toEqual({ message: "Successfully imported certificate to CA", caId: inter.id });
    const active = await read(inter.id);
    expect(active).toMatchObject({
      status: "active",
      configuration: {
        serialNumber,
        parentCaId: parent.id,
        notBefore,
        notAfter: "2035-01-01T00:00:00Z",
      },
    });
    // The intermediate now signs in its turn (a CA under its path length of 1); its chain carries
    // its own parent's certificate.
    const leaf = await intermediate();
    const second = await sign(inter.id, await csrOf(leaf.id), { notBefore, maxPathLength: 0 });
    expect(second.body.certificateChain).toBe(`${certificate}\n${certificateChain}`);
    for (const type of ["get-certificate-authority-csr", "sign-intermediate", "import-certificate-authority-cert"])
      expect((await auditOf(api, FX.pkiProjectId, type)).length).toBeGreaterThan(0);
  });

  // services/certificate-authority/internal/internal-certificate-authority-service.ts, signIntermediate.
  test("a signature within the issuer's certificate only: its validity and path length (400s)", async () => {
    const parent = await root();
    const csr = await csrOf((await intermediate()).id);
    const refused = async (extra: Record<string, unknown>, message: string) =>
      expectError(await sign(parent.id, csr, extra), 400, "BadRequest", message);
    await refused({ notAfter: "2040-01-01T00:00:01Z" }, "notAfter date is after CA certificate's notAfter date");
    await refused({ notAfter: "2041-06-01T00:00:00Z" }, "notAfter date is after CA certificate's notAfter date");
    await refused({ notBefore: "2020-01-01T00:00:00Z" }, "notBefore date is before CA certificate's notBefore date");
    await refused(
      { notBefore: "2034-01-01T00:00:00Z", notAfter: "2033-01-01T00:00:00Z" },
      "notBefore date is after notAfter date",
    );
    // Up to the issuer's own end is signed.
    expect((await sign(parent.id, csr, { notAfter: "2040-01-01T00:00:00Z" })).status).toBe(200);

    // An issuer whose certificate has a path length: 0 signs no CA; n, only CAs under n.
    const limited = async (maxPathLength: number) => {
      const ca = await intermediate();
      const signed = (await sign(parent.id, await csrOf(ca.id), { maxPathLength })).body;
      await api.post(`${cas}/${ca.id}/import-certificate`, signed);
      expect((await read(ca.id)).status).toBe("active");
      return ca;
    };
    const zero = await limited(0);
    expectError(
      await sign(zero.id, csr, { maxPathLength: 0 }),
      400,
      "BadRequest",
      "Failed to issue intermediate certificate due to CA path length constraint",
    );
    const two = await limited(2);
    for (const maxPathLength of [-1, 2, 3])
      expectError(
        await sign(two.id, csr, { maxPathLength }),
        400,
        "BadRequest",
        "The requested path length constraint exceeds the CA's allowed path length",
      );
    expect((await sign(two.id, csr, { maxPathLength: 1 })).status).toBe(200);
  });

  test("an import needs a certificate this emulator signed for that CA's CSR", async () => {
    const parent = await root();
    const a = await intermediate();
    const b = await intermediate();
    const forB = (await sign(parent.id, await csrOf(b.id))).body;
    const refuse = async (certificate: string) =>
      expectError(
        await api.post(`${cas}/${a.id}/import-certificate`, { certificate, certificateChain: "" }),
        400,
        "BadRequest",
        /was not issued/,
      );
    await refuse(forB.certificate);
    await refuse("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----");
    await refuse(forB.certificate.replace(/[A-Za-z](?=\n-----END)/, (c: string) => (c === "A" ? "B" : "A")));
    // A root's own CSR does not exist: nothing can be imported into one.
    expect((await read(a.id)).status).toBe("pending-certificate");
    expectError(await sign(parent.id, "not a csr"), 400, "BadRequest");
    expect422(await sign(parent.id, ""), ["csr"]);
  });

  test("the fixture's internal CA is an active root; the external one is not served here", async () => {
    const fixture = await read(FX.internalCaId);
    expect(fixture).toMatchObject({ status: "active", configuration: { type: "root" } });
    const inter = await intermediate();
    expect((await sign(FX.internalCaId, await csrOf(inter.id))).status).toBe(200);
    expectError(await api.get(`${cas}/${FX.externalCaId}`), 404, "NotFound");
    const listed = InternalCaListSchema.parse((await api.get(cas, { query: { projectId: FX.pkiProjectId } })).body);
    expect(listed.map((c) => c.id)).toContain(FX.internalCaId);
    expect(listed.map((c) => c.id)).not.toContain(FX.externalCaId);
    expect(listed.every((c) => c.projectId === FX.pkiProjectId)).toBe(true);
    expectNotMember(await api.get(`${cas}/${FX.restrictedCaId}`));
    expectNotMember(await api.get(cas, { query: { projectId: FX.restrictedPkiProjectId } }));
  });

  test("PATCH changes the status; a disabled CA does not sign", async () => {
    const ca = await root();
    const res = await api.patch(`${cas}/${ca.id}`, { status: "disabled" });
    expect(res.body).toMatchObject({ id: ca.id, status: "disabled" });
    const inter = await intermediate();
    expectError(await sign(ca.id, await csrOf(inter.id)), 400, "BadRequest", "CA is disabled");
  });

  test("a name taken in the project; an unknown CA", async () => {
    const ca = await root();
    expectError(
      await api.post(cas, {
        projectId: FX.pkiProjectId,
        name: ca.name,
        configuration: { type: "root", commonName: "x" },
      }),
      400,
      "BadRequest",
      `Certificate authority with name "${ca.name}" already exists in the project`,
    );
    const unknown = "00000000-0000-4000-8000-0000000000ca";
    expectError(
      await api.get(`${cas}/${unknown}`),
      404,
      "NotFound",
      `Could not find certificate authority with id "${unknown}"`,
    );
    expect422(await api.post(cas, { projectId: FX.pkiProjectId, name: uniq("ca"), configuration: { type: "root" } }), [
      "configuration",
    ]);
  });

  test("DELETE answers the CA; the CAs it was the parent of lose their parent", async () => {
    const parent = await root();
    const child = await intermediate({ parentCaId: parent.id });
    const res = await api.delete(`${cas}/${parent.id}`);
    expect(res.body).toMatchObject({ id: parent.id, name: parent.name });
    expectError(await api.get(`${cas}/${parent.id}`), 404, "NotFound");
    expect((await read(child.id)).configuration.parentCaId).toBeNull();
    expect((await auditOf(api, FX.pkiProjectId, "delete-certificate-authority")).length).toBeGreaterThan(0);
  });
});

describe("certificate policies", () => {
  const rules = {
    description: "web servers",
    subject: [{ type: "common_name", allowed: ["*.example.com"] }],
    sans: [{ type: "dns_name", required: ["example.com"] }],
    keyUsages: { allowed: ["digital_signature"], denied: ["crl_sign"] },
    extendedKeyUsages: { required: ["server_auth"] },
    algorithms: { signature: ["RSA-SHA256"], keyAlgorithm: ["RSA_2048"] },
    validity: { max: "365d" },
    basicConstraints: { isCA: "denied", maxPathLength: 0 },
  };

  async function createPolicy(name: string, extra: Record<string, unknown> = {}): Promise<Json> {
    const res = await api.post(policies, { projectId: FX.pkiProjectId, name, ...extra });
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return CertificatePolicyEnvelope.parse(res.body).certificatePolicy;
  }

  test("create stores every field given; the read answers them", async () => {
    const name = uniq("web");
    const p = await createPolicy(name, rules);
    expect(p).toMatchObject({ name, projectId: FX.pkiProjectId, ...rules });
    expect((await api.get(`${policies}/${p.id}`)).body.certificatePolicy).toEqual(p);
    const bare = await createPolicy(uniq("bare"));
    expect(bare).toMatchObject({ description: null, subject: null, validity: null, basicConstraints: null });
    const [event] = await auditOf(api, FX.pkiProjectId, "create-certificate-policy");
    expect(event.event.metadata).toMatchObject({ certificatePolicyId: bare.id });
  });

  test("a name used in the project is not refused: the policy gets another", async () => {
    const name = uniq("same");
    const first = await createPolicy(name);
    const second = await createPolicy(name);
    expect(first.name).toBe(name);
    expect(second.name).toMatch(new RegExp(`^${name}-[a-z0-9]{8}$`));
    // A rename onto a used name, likewise; a rename to its own name changes nothing.
    const third = await createPolicy(uniq("third"));
    const renamed = (await api.patch(`${policies}/${third.id}`, { name })).body.certificatePolicy;
    expect(renamed.name).toMatch(new RegExp(`^${name}-[a-z0-9]{8}$`));
    const same = (await api.patch(`${policies}/${first.id}`, { name })).body.certificatePolicy;
    expect(same.name).toBe(name);
  });

  test("PATCH updates the fields given, null clears", async () => {
    const p = await createPolicy(uniq("patch"), rules);
    const res = await api.patch(`${policies}/${p.id}`, { description: "changed", validity: null });
    expect(res.body.certificatePolicy).toMatchObject({
      description: "changed",
      validity: null,
      subject: rules.subject,
      keyUsages: rules.keyUsages,
    });
    expect(Date.parse(res.body.certificatePolicy.updatedAt)).toBeGreaterThan(Date.parse(p.updatedAt));
  });

  test("the list: search on the name, offset, limit and the total", async () => {
    const tag = uniq("listed");
    for (let i = 0; i < 3; i++) await createPolicy(`${tag}-${i}`);
    const res = await api.get(policies, { query: { projectId: FX.pkiProjectId, search: tag, limit: 2 } });
    const page = CertificatePolicyListEnvelope.parse(res.body);
    expect(page.totalCount).toBe(3);
    expect(page.certificatePolicies.map((p) => p.name)).toEqual([`${tag}-2`, `${tag}-1`]);
    const rest = await api.get(policies, { query: { projectId: FX.pkiProjectId, search: tag, offset: 2 } });
    expect(rest.body.certificatePolicies.map((p: Json) => p.name)).toEqual([`${tag}-0`]);
    expectNotMember(await api.get(policies, { query: { projectId: FX.restrictedPkiProjectId } }));
  });

  test("errors: unknown, another project's, a type given twice, a bad name", async () => {
    const unknown = "00000000-0000-4000-8000-0000000000aa";
    expectError(await api.get(`${policies}/${unknown}`), 404, "NotFound", "Certificate policy not found");
    expectNotMember(await api.get(`${policies}/${FX.restrictedPolicyId}`));
    // The service's 403 after its schema passed (certificatePolicyRules).
    expectError(
      await api.post(policies, {
        projectId: FX.pkiProjectId,
        name: uniq("dup"),
        subject: [
          { type: "common_name", allowed: ["a"] },
          { type: "common_name", denied: ["b"] },
        ],
      }),
      403,
      "ForbiddenError",
      "Duplicate attribute type 'common_name' found in request. Each attribute type must appear only once.",
    );
    expectError(
      await api.post(policies, {
        projectId: FX.pkiProjectId,
        name: uniq("dup"),
        sans: [{ type: "dns_name", allowed: ["a.example.com", "a.example.com"] }],
      }),
      403,
      "ForbiddenError",
      "Duplicate values found in allowed list for SAN type 'dns_name'",
    );
    expect422(await api.post(policies, { projectId: FX.pkiProjectId, name: "Not A Slug" }), ["name"]);
  });

  test("DELETE is refused while a profile uses the policy, naming the profiles", async () => {
    const p = await createPolicy(uniq("used"));
    const slugs = [uniq("prof-a"), uniq("prof-b")];
    const ids: string[] = [];
    for (const slug of slugs) {
      const body = {
        projectId: FX.pkiProjectId,
        certificatePolicyId: p.id,
        caId: FX.internalCaId,
        slug,
        enrollmentType: "acme",
      };
      ids.push((await api.post(apiPaths.certificateProfiles, body)).body.certificateProfile.id);
    }
    expectError(
      await api.delete(`${policies}/${p.id}`),
      403,
      "ForbiddenError",
      `Cannot delete policy '${p.name}' as it is currently in use by the following certificate profiles: ${slugs.join(", ")}. Please remove this policy from these profiles before deleting it.`,
    );
    for (const id of ids) await api.delete(`${apiPaths.certificateProfiles}/${id}`);
    const res = await api.delete(`${policies}/${p.id}`);
    expect(res.body.certificatePolicy).toEqual(p);
    expectError(await api.get(`${policies}/${p.id}`), 404, "NotFound");
  });
});
