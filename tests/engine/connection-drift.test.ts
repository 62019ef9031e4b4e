import type { AppConnectionApp } from "../../sdk/schemas";
import { changeCounts } from "./harness";
import { engineEnv, type EngineEnv, writes } from "./lifecycle";

// A credential the service never returns, changed out of band, is drift all the same (issue 19):
// the service's credentialsHash moves away from the one our last write produced, so refresh shows
// the connection changed, the preview shows which credential up writes again
// (`credentials.password: 0 => 1`), and up writes the declared
// credentials again; then the preview is clean. For a connection made in code and for the settings
// of one made elsewhere. Drift is seen the same whether the refresh reads the connection by id
// or through its project's list.
jest.setTimeout(10 * 60_000);

const PASSWORD = "canary-drift-password-71c3";
const credentials = {
  host: "db.internal",
  port: 5432,
  database: "app",
  username: "admin",
  sslEnabled: true,
  sslRejectUnauthorized: true,
};

describe("credential drift through credentialsHash", () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await engineEnv();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it.each(["AppConnection", "AppConnectionSettings"])("%s: refresh sees it, up restores it", async (kind) => {
    const f = env.emulator.summary;
    const args =
      kind === "AppConnection"
        ? {
            app: "postgres",
            name: "drifting",
            projectId: f.projects[0]!.id,
            method: "username-and-password",
            credentials,
          }
        : await (async () => {
            // The connection's other credential fields as the service has them: only the password
            // is the program's, and a create must still write it.
            const connectionId = f.connections.find((c) => c.app === "mysql" && !c.projectId)!.id;
            const shown = (await env.client.appConnections.get("mysql", connectionId)).credentials;
            return { app: "mysql", connectionId, credentials: shown as typeof credentials };
          })();
    const app = args.app as AppConnectionApp;
    await env.t.stack.setConfig("resources:secrets", {
      value: JSON.stringify({ subject: { credentials: { password: PASSWORD } } }),
      secret: true,
    });
    await env.declare([{ kind, name: "subject", args: { ...args, secretFieldsFrom: ["credentials"] } }]);
    await env.resetRequests();
    await env.t.stack.up();
    // The settings of a connection made elsewhere set its credentials when the resource is made:
    // one PATCH (the declared secret is written, never taken as the one the service holds).
    expect(writes(await env.requests()).map((r) => r.method)).toEqual([kind === "AppConnection" ? "POST" : "PATCH"]);
    const id = ((await env.t.stack.outputs()).subject!.value as { id: string }).id;
    expect(changeCounts((await env.t.stack.preview()).changeSummary).update).toBe(0);

    // Someone sets another password through the service.
    const current = await env.client.appConnections.get(app, id);
    await env.client.appConnections.update(app, id, {
      credentials: { ...(current.credentials as typeof credentials), password: "changed-by-hand" },
    } as never);

    await env.resetRequests();
    const refresh = await env.t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges).update).toBe(1);
    // A project's connection is read through the project's list of every kind (issue 20's shared
    // reads); the settings of a connection made elsewhere, by id.
    const reads = (await env.requests()).filter((r) => r.method === "GET").map((r) => r.path.split("?")[0]);
    expect(reads).toEqual(
      kind === "AppConnection" ? ["/api/v1/app-connections"] : [`/api/v1/app-connections/mysql/${id}`],
    );
    const preview = await env.t.stack.preview({ diff: true });
    expect(changeCounts(preview.changeSummary).update).toBe(1);
    // Which secret up writes again, as for a change in the program (issue 26 item 6).
    expect(preview.stdout).toMatch(/~ secretRevisions\s*: \{\s*~ credentials\.password: 0 => 1\s*\}/);
    expect(preview.stdout).not.toContain(PASSWORD);

    await env.resetRequests();
    await env.t.stack.up();
    expect(writes(await env.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 200"]);
    expect(changeCounts((await env.t.stack.preview()).changeSummary).update).toBe(0);

    await env.declare([]);
    await env.t.stack.up();
  });
});
