import * as fs from "node:fs";
import * as path from "node:path";
import { dynamicProvider } from "../../provider/dynamic-provider";
import { identityAuthDefinition, programTrustedIps } from "../../provider/identity-auth";
import { identityClientSecretDefinition } from "../../provider/identity-client-secret";
import { machineIdentityDefinition } from "../../provider/machine-identity";
import { programResources } from "../../provider/program-resources";
import { UNKNOWN } from "../../provider/values";
import type { SecretOpsClient } from "../../sdk";
import { SecretOpsApiError } from "../../sdk/errors";
import { identityAuthMethodRow } from "../../sdk/schemas";

// check and diff need no server: they run in preview, before any API call. The API calls run
// against a stand-in client that answers as the service does (docs/service-api.md §18).

type Args = Record<string, unknown>;

const auth = dynamicProvider(identityAuthDefinition);
const identity = dynamicProvider(machineIdentityDefinition);
const clientSecret = dynamicProvider(identityClientSecretDefinition);

/** Runs `check` as the engine does at preview: each resource with its name. */
const check = (provider: ReturnType<typeof dynamicProvider>, name: string, args: Args) =>
  provider.check!({}, { ...args, __resourceName: name });

const refusal = (status: number, message: string, method: "GET" | "POST" | "PATCH" | "DELETE" = "POST") =>
  new SecretOpsApiError({ status, error: "BadRequest", message, method, path: "/api/v1/x" });

describe("IdentityAuth's check", () => {
  it("refuses an unknown method, naming the nearest one", async () => {
    const { failures } = await check(auth, "ua", { identityId: "i1", method: "universl-auth" });
    expect(failures).toEqual([
      {
        property: "method",
        reason: expect.stringMatching(
          /^unknown identity auth method "universl-auth" \(did you mean "universal-auth"\?\)/,
        ),
      },
    ]);
  });

  it("refuses a misspelt field, naming it and the nearest field", async () => {
    const { failures } = await check(auth, "ua", { identityId: "i1", method: "universal-auth", lockoutTreshold: 5 });
    expect(failures).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/unknown field "lockoutTreshold".*lockoutThreshold/) }),
    ]);
  });

  it("refuses an access-token TTL above its max TTL, in the service's words", async () => {
    const { failures } = await check(auth, "ua", {
      identityId: "i1",
      method: "token-auth",
      accessTokenTTL: 7200,
      accessTokenMaxTTL: 3600,
    });
    expect(failures).toEqual([
      { property: "accessTokenTTL", reason: "Access Token TTL cannot be greater than Access Token Max TTL." },
    ]);
  });

  it("refuses an invalid trusted IP, naming its path", async () => {
    const { failures } = await check(auth, "ua", {
      identityId: "i1",
      method: "universal-auth",
      clientSecretTrustedIps: [{ ipAddress: "10.0.0.0/33" }],
    });
    expect(failures).toEqual([
      {
        property: "clientSecretTrustedIps.0.ipAddress",
        reason: "The IP is not a valid IPv4, IPv6, or CIDR block",
      },
    ]);
  });

  it("refuses a second resource with the same method on one identity, naming both", async () => {
    const args = { identityId: "ident-dup", method: "universal-auth" };
    expect((await check(auth, "ua-a", args)).failures ?? []).toEqual([]);
    expect((await check(auth, "ua-b", args)).failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^method: IdentityAuth "ua-b" and IdentityAuth "ua-a" of this program both declare this method on one identity/,
        ),
      },
    ]);
    // Another method on the identity, or the method on another identity: no clash.
    expect((await check(auth, "tk", { identityId: "ident-dup", method: "token-auth" })).failures ?? []).toEqual([]);
    expect((await check(auth, "ua-c", { ...args, identityId: "ident-other" })).failures ?? []).toEqual([]);
  });

  it("waits for a method not known yet at preview", async () => {
    expect((await check(auth, "later", { identityId: "i9", method: UNKNOWN })).failures ?? []).toEqual([]);
  });

  it("keeps a method's secret fields secret", async () => {
    expect(programResources.IdentityAuth.secrets).toEqual(
      expect.arrayContaining(["caCert", "tokenReviewerJwt", "jwksCaCert", "publicKeys"]),
    );
    expect(programResources.IdentityAuth.outputs).not.toContain("caCert");
  });
});

describe("IdentityAuth's trusted IPs", () => {
  it("reads the service's stored form back as the program declares it", () => {
    expect(
      programTrustedIps([
        { ipAddress: "10.0.0.0", type: "ipv4", prefix: 8 },
        { ipAddress: "0.0.0.0", type: "ipv4", prefix: 0 },
        { ipAddress: "::", type: "ipv6", prefix: 0 },
        { ipAddress: "192.168.1.7", type: "ipv4" },
        { ipAddress: "172.16.0.0/12", type: "ipv4", prefix: 12 },
      ]),
    ).toEqual([
      { ipAddress: "10.0.0.0/8" },
      { ipAddress: "0.0.0.0/0" },
      { ipAddress: "::/0" },
      { ipAddress: "192.168.1.7" },
      { ipAddress: "172.16.0.0/12" },
    ]);
  });

  it("shows no change after an up: the outputs read from the service match the program's args", async () => {
    const declared = {
      identityId: "i-ips",
      method: "universal-auth",
      accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }],
    };
    const { inputs, failures } = await check(auth, "ips", declared);
    expect(failures ?? []).toEqual([]);
    const stored = (ips: { ipAddress: string }[]) =>
      ips.map(({ ipAddress }) => {
        const [ip, prefix] = ipAddress.split("/");
        return { ipAddress: ip, type: ip!.includes(":") ? "ipv6" : "ipv4", prefix: Number(prefix) };
      });
    // The service's answer to the attach: the body as it stores it.
    const remote = {
      ...inputs,
      id: "i-ips",
      identityId: "i-ips",
      method: "universal-auth",
      clientId: "client-1",
      accessTokenTrustedIps: stored(inputs.accessTokenTrustedIps as { ipAddress: string }[]),
      clientSecretTrustedIps: stored(inputs.clientSecretTrustedIps as { ipAddress: string }[]),
    };
    const outs = Object.fromEntries(
      Object.entries({ ...identityAuthDefinition.reported, ...identityAuthDefinition.computed }).map(([k, read]) => [
        k,
        (read as (r: unknown) => unknown)(remote),
      ]),
    );
    expect(outs.accessTokenTrustedIps).toEqual([{ ipAddress: "10.0.0.0/8" }]);
    expect(outs.clientSecretTrustedIps).toEqual([{ ipAddress: "0.0.0.0/0" }, { ipAddress: "::/0" }]);
    expect(outs.clientId).toBe("client-1");
    expect(await auth.diff!("i-ips", outs, inputs)).toMatchObject({ changes: false, replaces: [] });
    const moved = (await check(auth, "ips", { ...declared, accessTokenTrustedIps: [{ ipAddress: "10.1.0.0/16" }] }))
      .inputs;
    expect(await auth.diff!("i-ips", outs, moved)).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("IdentityAuth's writes", () => {
  it("names the trusted-IP field the plan refuses, with the service's message", async () => {
    const message =
      "Failed to add IP access range to access token due to plan restriction. Upgrade plan to add IP access range.";
    const client = {
      identityAuths: {
        attach: async () => {
          throw refusal(400, message);
        },
      },
    } as unknown as SecretOpsClient;
    const args = {
      identityId: "i1",
      method: "token-auth",
      accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "10.0.0.0/8" }],
      accessTokenTTL: 60,
      accessTokenMaxTTL: 60,
      accessTokenNumUsesLimit: 0,
    };
    await expect(identityAuthDefinition.create!(client, args)).rejects.toThrow(`accessTokenTrustedIps: ${message}`);
  });

  it("takes a method the identity no longer has, or an identity gone, as gone", async () => {
    const answers = [refusal(400, "The identity does not have universal auth", "GET"), refusal(404, "gone", "GET")];
    const client = {
      identityAuths: {
        get: async () => {
          throw answers.shift();
        },
        revoke: async () => {
          throw refusal(400, "The identity does not have universal auth", "DELETE");
        },
      },
    } as unknown as SecretOpsClient;
    const outs = { method: "universal-auth", identityId: "i1" } as never;
    expect(await identityAuthDefinition.read(client, "i1", outs)).toBeUndefined();
    expect(await identityAuthDefinition.read(client, "i1", outs)).toBeUndefined();
    await expect(identityAuthDefinition.delete(client, "i1", outs)).resolves.toBeUndefined();
  });
});

describe("IdentityAuth's rows beyond the fields", () => {
  it("sends the fields the PATCH requires (alwaysInPatch) with every PATCH", async () => {
    const sent: unknown[] = [];
    const client = {
      identityAuths: {
        update: async (_method: string, identityId: string, body: Args) => {
          sent.push(body);
          return {
            identityId,
            accessTokenTTL: 60,
            accessTokenMaxTTL: 60,
            accessTokenNumUsesLimit: 0,
            accessTokenTrustedIps: [],
          };
        },
      },
    } as unknown as SecretOpsClient;
    const outs = {
      identityId: "i1",
      method: "aws-auth",
      allowedPrincipalArns: "arn:aws:iam::123456789012:role/ci",
      allowedAccountIds: "123456789012",
    } as never;
    await identityAuthDefinition.update(client, "i1", { accessTokenTTL: 60 }, outs);
    expect(sent).toEqual([
      {
        accessTokenTTL: 60,
        allowedPrincipalArns: "arn:aws:iam::123456789012:role/ci",
        allowedAccountIds: "123456789012",
      },
    ]);
  });

  it("replaces on a field the PATCH does not take (notInPatch), the old method revoked first", async () => {
    const row = identityAuthMethodRow("ldap-auth")!;
    expect(row.notInPatch?.length).toBeGreaterThan(0);
    const field = row.notInPatch![0]!;
    const olds = { identityId: "i1", method: "ldap-auth" };
    const { inputs } = await check(auth, "ldap", { ...olds, ...row.example, [field]: "changed" });
    const d = await auth.diff!("i1", { ...olds, ...row.example }, inputs);
    expect(d).toMatchObject({ replaces: [field], deleteBeforeReplace: true });
  });

  it("keeps a secret inside a field (SPIFFE's bundle) out of the outputs, and shows no change after an up", async () => {
    const declared = {
      identityId: "i-spiffe",
      method: "spiffe-auth",
      ...identityAuthMethodRow("spiffe-auth")!.example,
    };
    const { inputs, failures } = await check(auth, "spiffe", declared);
    expect(failures ?? []).toEqual([]);
    const remote = {
      ...inputs,
      id: "i-spiffe",
      accessTokenTrustedIps: [
        { ipAddress: "0.0.0.0", prefix: 0 },
        { ipAddress: "::", prefix: 0 },
      ],
    };
    const read = identityAuthDefinition.reported.trustBundleDistribution as (r: unknown) => unknown;
    expect(read(remote)).toEqual({ profile: "static" });
    const outs = Object.fromEntries(
      Object.entries(identityAuthDefinition.reported).map(([k, f]) => [k, (f as (r: unknown) => unknown)(remote)]),
    );
    expect(programResources.IdentityAuth.secrets).toContain("trustBundleDistribution");
    expect((await auth.diff!("i-spiffe", outs, inputs)).replaces).toEqual([]);
  });
});

describe("MachineIdentity", () => {
  it("checks an organization's identity and a project's own against their schemas", async () => {
    const org = await check(identity, "org", { name: "ci", organizationId: "org-1" });
    expect(org.failures ?? []).toEqual([]);
    expect(org.inputs).toMatchObject({ role: "no-access", hasDeleteProtection: false });
    const project = await check(identity, "prj", { name: "ci", projectId: "p-1" });
    expect(project.failures ?? []).toEqual([]);
    // A project's identity has no organization role.
    const both = await check(identity, "both", { name: "ci", projectId: "p-1", role: "admin" });
    expect(both.failures).toEqual([expect.objectContaining({ reason: expect.stringMatching(/unknown field "role"/) })]);
  });

  it("renames in place and replaces on a change of organization or project", async () => {
    const olds = { name: "ci", organizationId: "org-1", role: "no-access", hasDeleteProtection: false };
    const renamed = (await check(identity, "org", { ...olds, name: "ci-2" })).inputs;
    expect(await identity.diff!("id", olds, renamed)).toMatchObject({ changes: true, replaces: [] });
    const moved = (await check(identity, "org", { ...olds, organizationId: "org-2" })).inputs;
    expect(await identity.diff!("id", olds, moved)).toMatchObject({ replaces: ["organizationId"] });
    const toProject = (await check(identity, "org", { name: "ci", projectId: "p-1" })).inputs;
    expect(await identity.diff!("id", olds, toProject)).toMatchObject({ replaces: ["projectId"] });
  });

  it("sends the name with a PATCH that only turns delete protection off", async () => {
    const sent: unknown[] = [];
    const client = {
      identities: {
        update: async (_id: string, body: unknown) => {
          sent.push(body);
          return { id: "id", name: "ci", orgId: "org-1", hasDeleteProtection: false };
        },
      },
    } as unknown as SecretOpsClient;
    const outs = { name: "ci", organizationId: "org-1", role: "member", authMethods: ["universal-auth"] } as never;
    const updated = await machineIdentityDefinition.update(client, "id", { hasDeleteProtection: false }, outs);
    expect(sent).toEqual([{ hasDeleteProtection: false, name: "ci" }]);
    // The PATCH's answer has no role nor login methods: they are kept.
    expect(updated).toMatchObject({ role: "member", authMethods: ["universal-auth"] });
    await machineIdentityDefinition.update(client, "id", { hasDeleteProtection: true }, outs);
    expect(sent[1]).toEqual({ hasDeleteProtection: true });
  });

  it("says what to do when the service refuses to delete a protected identity", async () => {
    const client = {
      identities: {
        delete: async () => {
          throw refusal(400, "Identity has delete protection", "DELETE");
        },
      },
    } as unknown as SecretOpsClient;
    await expect(
      machineIdentityDefinition.delete(client, "id-1", { name: "ci", organizationId: "org-1" } as never),
    ).rejects.toThrow(
      /^hasDeleteProtection: machine identity "ci" \(id id-1\) has delete protection.*set hasDeleteProtection: false/,
    );
  });
});

describe("IdentityClientSecret", () => {
  const outs = {
    identityId: "i1",
    description: "ci",
    numUsesLimit: 0,
    ttl: 0,
    clientSecret: "canary-client-secret-0f3a",
    clientSecretPrefix: "cana",
  };

  it("replaces on a change of any arg (the service has no PATCH)", async () => {
    for (const change of [{ description: "deploys" }, { numUsesLimit: 5 }, { ttl: 60 }, { identityId: "i2" }]) {
      const { inputs } = await check(clientSecret, "cs", { identityId: "i1", description: "ci", ...change });
      const d = await clientSecret.diff!("cs-1", outs, inputs);
      expect(d).toMatchObject({ changes: true, replaces: Object.keys(change), deleteBeforeReplace: false });
    }
    const same = (await check(clientSecret, "cs", { identityId: "i1", description: "ci" })).inputs;
    expect(await clientSecret.diff!("cs-1", outs, same)).toMatchObject({ changes: false, replaces: [] });
  });

  it("keeps the secret it made on a read, and takes a revoked one as gone", async () => {
    const data = {
      id: "cs-1",
      description: "ci",
      clientSecretPrefix: "cana",
      clientSecretNumUses: 2,
      clientSecretNumUsesLimit: 0,
      clientSecretTTL: 0,
      isClientSecretRevoked: false,
    };
    const answers = [data, { ...data, isClientSecretRevoked: true }];
    const client = { identityAuths: { getClientSecret: async () => answers.shift() } } as unknown as SecretOpsClient;
    const read = await identityClientSecretDefinition.read(client, "cs-1", outs as never);
    expect(read).toMatchObject({ clientSecret: outs.clientSecret, clientSecretNumUses: 2, identityId: "i1" });
    expect(identityClientSecretDefinition.computed.clientSecret(read!)).toBe(outs.clientSecret);
    expect(await identityClientSecretDefinition.read(client, "cs-1", outs as never)).toBeUndefined();
  });

  it("declares its clientSecret output secret, in the program's classes and in schema.json", () => {
    expect(programResources.IdentityClientSecret.secrets).toEqual(["clientSecret"]);
    expect(programResources.IdentityClientSecret.outputs).toContain("clientSecret");
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "schema.json"), "utf8")) as {
      resources: Record<string, { properties: Record<string, { secret?: boolean }> }>;
    };
    const resource = schema.resources["secretops:index:IdentityClientSecret"]!;
    expect(resource.properties.clientSecret).toMatchObject({ type: "string", secret: true });
    expect(resource.properties.clientSecretPrefix?.secret).toBeUndefined();
  });
});
