import {
  type IdentityAuthMethodRow,
  IdentityCreateSchema,
  formatIssueList,
  identityAuthAttachSchema,
  identityAuthMethods,
  identityAuthRules,
  identityAuthUpdateSchema,
  issuesFromZod,
} from "../../sdk/schemas";

/** The identity schemas take each method's example with the service's defaults, and say what is wrong in `field: rule` words. */
describe("identity auth method rows", () => {
  test.each(Object.values(identityAuthMethods) as IdentityAuthMethodRow[])(
    "$method: its example attaches with the service's defaults",
    (row) => {
      const body = identityAuthAttachSchema(row).parse(row.example);
      expect(body).toMatchObject({
        accessTokenTTL: 2592000,
        accessTokenMaxTTL: 2592000,
        accessTokenNumUsesLimit: 0,
        accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "::/0" }],
      });
      expect(identityAuthRules(row, true)(body)).toEqual([]);
      // The PATCH takes any one field beside those it requires, and fills in nothing.
      const required = Object.fromEntries((row.alwaysInPatch ?? []).map((k) => [k, body[k]]));
      expect(identityAuthUpdateSchema(row).parse({ ...required, accessTokenTTL: 60 })).toEqual({
        ...required,
        accessTokenTTL: 60,
      });
      for (const k of row.notInPatch ?? []) expect(identityAuthUpdateSchema(row).shape).not.toHaveProperty(k);
    },
  );

  test("a TTL above the max TTL, a bad IP and a typo are refused naming the field", () => {
    const row = identityAuthMethods["universal-auth"];
    const r = identityAuthAttachSchema(row).safeParse({ accessTokenTTL: 10, accessTokenMaxTTL: 5, lockoutTreshold: 3 });
    expect(r.success).toBe(false);
    const text = formatIssueList(issuesFromZod(r.error!.issues));
    expect(text).toContain("lockoutTreshold");
    expect(text).toContain("lockoutThreshold");
    const ok = identityAuthAttachSchema(row).safeParse({ accessTokenTTL: 10, accessTokenMaxTTL: 5 });
    expect(formatIssueList(issuesFromZod(ok.error!.issues))).toContain(
      "accessTokenTTL: Access Token TTL cannot be greater than Access Token Max TTL.",
    );
    const ips = identityAuthRules(row, true)({ accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/33" }] });
    expect(ips).toEqual([
      { path: "accessTokenTrustedIps.0.ipAddress", message: "The IP is not a valid IPv4, IPv6, or CIDR block" },
    ]);
  });

  test("the table has every method of the service's IdentityAuthMethod enum", () => {
    expect(Object.keys(identityAuthMethods).sort()).toEqual(
      [
        "token-auth",
        "universal-auth",
        "kubernetes-auth",
        "gcp-auth",
        "alicloud-auth",
        "aws-auth",
        "azure-auth",
        "oci-auth",
        "oidc-auth",
        "ldap-auth",
        "jwt-auth",
        "tls-cert-auth",
        "spiffe-auth",
      ].sort(),
    );
  });

  test("kubernetes auth in api mode needs a host", () => {
    const row = identityAuthMethods["kubernetes-auth"];
    const body = identityAuthAttachSchema(row).parse({
      kubernetesHost: null,
      allowedNamespaces: "",
      allowedNames: "",
      allowedAudience: "",
    });
    expect(identityAuthRules(row, true)(body)).toEqual([
      { path: "kubernetesHost", message: "When token review mode is set to API, a Kubernetes host must be provided" },
    ]);
  });

  test("an identity defaults to no organization access and no delete protection", () => {
    expect(IdentityCreateSchema.parse({ name: "ci", organizationId: "org" })).toEqual({
      name: "ci",
      organizationId: "org",
      role: "no-access",
      hasDeleteProtection: false,
    });
  });
});
