import type { Issue } from "./errors";
import { type Transport, segment } from "./http";
import { perRow, requireRow } from "./rows";
import {
  type AppConnection,
  type AppConnectionApp,
  type AppConnectionKind,
  AppConnectionEnvelope,
  AppConnectionListEnvelope,
  AppConnectionListQuery,
  apiPaths,
  appConnectionApps,
  appConnectionCreateSchema,
  appConnectionKind,
  appConnectionUpdateSchema,
  nonEmpty,
  uuid,
} from "./schemas";
import type { AppConnectionCreateInput, AppConnectionUpdateInput } from "./types";

/** App connections (spec 4.1; reference §1 for the reads, create and delete). */

const createSchema = perRow((k: AppConnectionKind) => appConnectionCreateSchema(k));
const updateSchema = perRow((k: AppConnectionKind) => appConnectionUpdateSchema(k));

/**
 * Service rule the schema cannot express (reference §1): turning platform-managed credentials on
 * needs `credentials` in the same PATCH (the service then rotates the password to one only it
 * knows). Callers should omit the flag once it is on: the switch is one-way.
 */
function updateRules(body: { isPlatformManagedCredentials?: unknown; credentials?: unknown }): Issue[] {
  return body.isPlatformManagedCredentials === true && body.credentials === undefined
    ? [{ path: "credentials", message: "is required when turning on isPlatformManagedCredentials" }]
    : [];
}

export class AppConnectionsApi {
  constructor(private readonly t: Transport) {}

  private kind(app: string) {
    return requireRow(appConnectionKind, app, "app", appConnectionApps);
  }

  /** Connections of one kind; without `projectId`, the organization-scoped ones. */
  async list<A extends AppConnectionApp>(app: A, query: { projectId?: string } = {}): Promise<AppConnection[]> {
    this.kind(app);
    const res = await this.t.request({
      method: "GET",
      path: apiPaths.appConnections(app),
      query,
      querySchema: AppConnectionListQuery,
      responseSchema: AppConnectionListEnvelope,
    });
    return res.appConnections;
  }

  async get<A extends AppConnectionApp>(app: A, id: string): Promise<AppConnection> {
    this.kind(app);
    const res = await this.t.request({
      method: "GET",
      path: `${apiPaths.appConnections(app)}/${segment(id)}`,
      params: { connectionId: [id, uuid] },
      responseSchema: AppConnectionEnvelope,
    });
    return res.appConnection;
  }

  /** Find by name (adoption, and resolving an ambiguous create). Without `projectId`: org scope. */
  async getByName<A extends AppConnectionApp>(
    app: A,
    name: string,
    query: { projectId?: string } = {},
  ): Promise<AppConnection> {
    this.kind(app);
    const res = await this.t.request({
      method: "GET",
      path: `${apiPaths.appConnections(app)}/connection-name/${segment(name)}`,
      params: { name: [name, nonEmpty] },
      query,
      querySchema: AppConnectionListQuery,
      responseSchema: AppConnectionEnvelope,
    });
    return res.appConnection;
  }

  async create<A extends AppConnectionApp>(app: A, body: AppConnectionCreateInput<A>): Promise<AppConnection> {
    const kind = this.kind(app);
    const res = await this.t.request({
      method: "POST",
      path: apiPaths.appConnections(app),
      body,
      bodySchema: createSchema(kind),
      responseSchema: AppConnectionEnvelope,
    });
    return res.appConnection;
  }

  async update<A extends AppConnectionApp>(
    app: A,
    id: string,
    body: AppConnectionUpdateInput<A>,
  ): Promise<AppConnection> {
    const kind = this.kind(app);
    const res = await this.t.request({
      method: "PATCH",
      path: `${apiPaths.appConnections(app)}/${segment(id)}`,
      params: { connectionId: [id, uuid] },
      body,
      bodySchema: updateSchema(kind),
      rules: updateRules,
      responseSchema: AppConnectionEnvelope,
    });
    return res.appConnection;
  }

  /** Returns the deleted connection (the service answers 200 with it). */
  async delete<A extends AppConnectionApp>(app: A, id: string): Promise<AppConnection> {
    this.kind(app);
    const res = await this.t.request({
      method: "DELETE",
      path: `${apiPaths.appConnections(app)}/${segment(id)}`,
      params: { connectionId: [id, uuid] },
      responseSchema: AppConnectionEnvelope,
    });
    return res.appConnection;
  }
}
