import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { createTestStack, type TestStack } from "../engine/harness";

/** The fixture identity's universal auth (emulator/fixtures/default.json). */
export const FIXTURE_LOGIN = {
  clientId: "30000000-0000-4000-8003-000000000001",
  clientSecret: "emulator-client-secret",
};

/** What programs/clients-tree outputs: where its secrets are, and its identity's login. */
export interface ClientsTreeOutputs {
  projectId: string;
  environment: string;
  secretPath: string;
  clientId: string;
  clientSecret: string;
}

export interface ClientsTree {
  emulator: Awaited<ReturnType<typeof startEmulator>>;
  t: TestStack;
  out: ClientsTreeOutputs;
}

/**
 * An emulator and an `up` of programs/clients-tree against it: the tree a vendor's client reads.
 * `slug` keeps each test file's project apart.
 */
export async function upClientsTree(slug: string): Promise<ClientsTree> {
  const emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  const t = await createTestStack({
    program: path.join(__dirname, "programs", "clients-tree"),
    config: {
      "secretops:apiUrl": { value: emulator.url },
      "secretops:token": { value: emulator.token, secret: true },
      "clients-tree:organizationId": { value: emulator.summary.orgId },
      "clients-tree:projectSlug": { value: `${slug}-${process.pid}` },
    },
  });
  const up = await t.stack.up();
  expect(up.summary.result).toBe("succeeded");
  const o = await t.stack.outputs();
  const out = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.value])) as unknown as ClientsTreeOutputs;
  return { emulator, t, out };
}
