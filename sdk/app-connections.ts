import type { Transport } from "./http";
import { requireRow } from "./rows";
import {
  type AppConnection,
  type AppConnectionApp,
  type AppConnectionOption,
  type ProjectType,
  allAppConnectionOperations,
  appConnectionApps,
  appConnectionKind,
  appConnectionOperations,
  appConnectionOptionOperations,
} from "./schemas";
import type { AppConnectionCreateInput, AppConnectionUpdateInput } from "./types";

/** App connections: one client for every kind, each call one row of `appConnectionOperations`. */
export class AppConnectionsApi {
  constructor(private readonly t: Transport) {}

  private ops(app: string) {
    return appConnectionOperations(requireRow(appConnectionKind, app, "app", appConnectionApps));
  }

  /**
   * Connections of one kind. Without `projectId`: every connection of the organization the caller
   * may read, project-scoped ones included; with it, that project's.
   */
  async list<A extends AppConnectionApp>(app: A, query: { projectId?: string } = {}): Promise<AppConnection[]> {
    return (await this.t.call(this.ops(app).list, { query })).appConnections;
  }

  /**
   * Connections of every kind in one call (one read of the rate limit), with the same scope as
   * `list`: without `projectId`, every connection of the organization the caller may read.
   */
  async listAll(query: { projectId?: string } = {}): Promise<AppConnection[]> {
    return (await this.t.call(allAppConnectionOperations.list, { query })).appConnections;
  }

  /**
   * The connection kinds the server offers, sorted by name: each one's slug, name and methods
   * (`GET /api/v1/app-connections/options`). With `projectType`, only the kinds a project of that
   * type can use. One read. A kind newer than this package is listed too.
   */
  async listOptions(query: { projectType?: ProjectType } = {}): Promise<AppConnectionOption[]> {
    return (await this.t.call(appConnectionOptionOperations.list, { query })).appConnectionOptions;
  }

  async get<A extends AppConnectionApp>(app: A, id: string): Promise<AppConnection> {
    return (await this.t.call(this.ops(app).get, { params: { connectionId: id } })).appConnection;
  }

  /** Find by name (adoption, and resolving an ambiguous create). Without `projectId`: org scope. */
  async getByName<A extends AppConnectionApp>(
    app: A,
    name: string,
    query: { projectId?: string } = {},
  ): Promise<AppConnection> {
    return (await this.t.call(this.ops(app).getByName, { params: { connectionName: name }, query })).appConnection;
  }

  async create<A extends AppConnectionApp>(app: A, body: AppConnectionCreateInput<A>): Promise<AppConnection> {
    return (await this.t.call(this.ops(app).create, { body })).appConnection;
  }

  /**
   * Turning platform-managed credentials on needs `credentials` in the same PATCH; once on, omit
   * the flag: the switch is one-way.
   */
  async update<A extends AppConnectionApp>(
    app: A,
    id: string,
    body: AppConnectionUpdateInput<A>,
  ): Promise<AppConnection> {
    return (await this.t.call(this.ops(app).update, { params: { connectionId: id }, body })).appConnection;
  }

  /** Returns the deleted connection (the service answers 200 with it). */
  async delete<A extends AppConnectionApp>(app: A, id: string): Promise<AppConnection> {
    return (await this.t.call(this.ops(app).delete, { params: { connectionId: id } })).appConnection;
  }
}
