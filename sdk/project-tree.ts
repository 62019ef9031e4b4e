import type { Transport } from "./http";
import {
  type CertificatePolicy,
  type CertificatePolicyCreate,
  type CertificatePolicyUpdate,
  type InternalCa,
  type InternalCaCreate,
  type InternalCaUpdate,
  type Project,
  type ProjectCreate,
  type ProjectEnvironment,
  type ProjectEnvironmentCreate,
  type ProjectEnvironmentUpdate,
  type ProjectType,
  type ProjectUpdate,
  type Secret,
  type SecretCreate,
  type SecretFolder,
  type SecretFolderCreate,
  type SecretFolderDelete,
  type SecretFolderUpdate,
  type SecretUpdate,
  certificatePolicyOperations,
  internalCaOperations,
  projectEnvironmentOperations,
  projectOperations,
  secretFolderOperations,
  secretOperations,
} from "./schemas";

/**
 * The tree every resource hangs on: projects, environments, folders, secrets, internal CAs and
 * certificate policies (docs/service-api.md §10 to §14), each call one row of its family's
 * operations (sdk/schemas/operations/project-tree.ts).
 */

export class ProjectsApi {
  constructor(private readonly t: Transport) {}

  /** The caller's projects (of `type`, if given). */
  async list(query: { type?: ProjectType } = {}): Promise<Project[]> {
    return (await this.t.call(projectOperations.list, { query })).projects;
  }

  /** With its environments (`environments`): the one read of a project's environments. */
  async get(projectId: string): Promise<Project> {
    return (await this.t.call(projectOperations.get, { params: { projectId } })).project;
  }

  /** Find by slug in the caller's organization. */
  async getBySlug(slug: string): Promise<Project> {
    return this.t.call(projectOperations.getBySlug, { params: { slug } });
  }

  async create(body: ProjectCreate): Promise<Project> {
    return (await this.t.call(projectOperations.create, { body })).project;
  }

  async update(projectId: string, body: ProjectUpdate): Promise<Project> {
    return (await this.t.call(projectOperations.update, { params: { projectId }, body })).project;
  }

  /** Deletes everything in the project with it (environments, folders, secrets, syncs, …). */
  async delete(projectId: string): Promise<Project> {
    return (await this.t.call(projectOperations.delete, { params: { projectId } })).project;
  }
}

export class ProjectEnvironmentsApi {
  constructor(private readonly t: Transport) {}

  async get(projectId: string, id: string): Promise<ProjectEnvironment> {
    return (await this.t.call(projectEnvironmentOperations.get, { params: { projectId, id } })).environment;
  }

  async create(projectId: string, body: ProjectEnvironmentCreate): Promise<ProjectEnvironment> {
    return (await this.t.call(projectEnvironmentOperations.create, { params: { projectId }, body })).environment;
  }

  async update(projectId: string, id: string, body: ProjectEnvironmentUpdate): Promise<ProjectEnvironment> {
    return (await this.t.call(projectEnvironmentOperations.update, { params: { projectId, id }, body })).environment;
  }

  /** Deletes the environment's folders and secrets with it. */
  async delete(projectId: string, id: string): Promise<ProjectEnvironment> {
    return (await this.t.call(projectEnvironmentOperations.delete, { params: { projectId, id } })).environment;
  }
}

/** Where a folder's children or a secret are: a project, an environment and a path. */
export interface FolderPlace {
  projectId: string;
  environment: string;
  path?: string;
}

export class SecretFoldersApi {
  constructor(private readonly t: Transport) {}

  /** The folders directly in `path` (with `recursive`, every folder below it); none when the path does not exist. */
  async list(place: FolderPlace & { recursive?: boolean }): Promise<SecretFolder[]> {
    return (await this.t.call(secretFolderOperations.list, { query: place })).folders;
  }

  /** With its full `path`, environment and project. */
  async get(id: string): Promise<SecretFolder> {
    return (await this.t.call(secretFolderOperations.get, { params: { id } })).folder;
  }

  /** Makes the folders `path` lacks too. */
  async create(body: SecretFolderCreate): Promise<SecretFolder> {
    return (await this.t.call(secretFolderOperations.create, { body })).folder;
  }

  /** Renames (`name`) or describes the folder `folderId` in `body.path`. */
  async update(folderId: string, body: SecretFolderUpdate): Promise<SecretFolder> {
    return (await this.t.call(secretFolderOperations.update, { params: { folderId }, body })).folder;
  }

  /** The folder named or with the id `folderIdOrName` in `body.path`; `forceDelete` also deletes what it holds. */
  async delete(folderIdOrName: string, body: SecretFolderDelete): Promise<SecretFolder> {
    return (await this.t.call(secretFolderOperations.delete, { params: { folderIdOrName }, body })).folder;
  }
}

/** Where a secret is: its project, environment and folder path. */
export interface SecretPlace {
  projectId: string;
  environment: string;
  secretPath?: string;
}

/** How secrets are read: with their values (default), and their references left as written (default). */
export interface SecretReadOptions {
  viewSecretValue?: boolean;
  expandSecretReferences?: boolean;
}

export class SecretsApi {
  constructor(private readonly t: Transport) {}

  /**
   * A folder's secrets, with their values unless `viewSecretValue` is false, as written unless
   * `expandSecretReferences` is true. A folder that does not exist is a 404 (docs/service-api.md §12).
   */
  async list(place: SecretPlace & SecretReadOptions): Promise<Secret[]> {
    return (await this.t.call(secretOperations.list, { query: place })).secrets;
  }

  async get(secretName: string, place: SecretPlace & SecretReadOptions): Promise<Secret> {
    return (await this.t.call(secretOperations.get, { params: { secretName }, query: place })).secret;
  }

  /** With its value, wherever it is (the service needs the permission to read values). */
  async getById(secretId: string): Promise<Secret> {
    return (await this.t.call(secretOperations.getById, { params: { secretId } })).secret;
  }

  async create(secretName: string, body: SecretCreate): Promise<Secret> {
    return (await this.t.call(secretOperations.create, { params: { secretName }, body })).secret;
  }

  /** `newSecretName` renames it. */
  async update(secretName: string, body: SecretUpdate): Promise<Secret> {
    return (await this.t.call(secretOperations.update, { params: { secretName }, body })).secret;
  }

  async delete(secretName: string, place: SecretPlace): Promise<Secret> {
    return (await this.t.call(secretOperations.delete, { params: { secretName }, body: place })).secret;
  }
}

export class InternalCasApi {
  constructor(private readonly t: Transport) {}

  async list(projectId: string): Promise<InternalCa[]> {
    return this.t.call(internalCaOperations.list, { query: { projectId } });
  }

  async get(caId: string): Promise<InternalCa> {
    return this.t.call(internalCaOperations.get, { params: { caId } });
  }

  /** A root with `notAfter` is active at once; an intermediate waits for its signed certificate. */
  async create(body: InternalCaCreate): Promise<InternalCa> {
    return this.t.call(internalCaOperations.create, { body });
  }

  async update(caId: string, body: InternalCaUpdate): Promise<InternalCa> {
    return this.t.call(internalCaOperations.update, { params: { caId }, body });
  }

  async delete(caId: string): Promise<InternalCa> {
    return this.t.call(internalCaOperations.delete, { params: { caId } });
  }

  /**
   * Signs the intermediate `caId` with the CA `parentCaId` and installs the certificate: its CSR,
   * the parent's signature, the import (three calls). The intermediate is active after.
   */
  async signIntermediate(
    caId: string,
    parentCaId: string,
    validity: { notBefore?: string; notAfter: string; maxPathLength?: number },
  ): Promise<void> {
    const { csr } = await this.t.call(internalCaOperations.csr, { params: { caId } });
    const signed = await this.t.call(internalCaOperations.signIntermediate, {
      params: { caId: parentCaId },
      body: { csr, ...validity },
    });
    await this.t.call(internalCaOperations.importCertificate, {
      params: { caId },
      body: { certificate: signed.certificate, certificateChain: signed.certificateChain },
    });
  }
}

export class CertificatePoliciesApi {
  constructor(private readonly t: Transport) {}

  /** One page (offset/limit, at most 100) and the total count. */
  async list(query: {
    projectId: string;
    offset?: number;
    limit?: number;
    search?: string;
  }): Promise<{ certificatePolicies: CertificatePolicy[]; totalCount: number }> {
    return this.t.call(certificatePolicyOperations.list, { query });
  }

  async get(id: string): Promise<CertificatePolicy> {
    return (await this.t.call(certificatePolicyOperations.get, { params: { id } })).certificatePolicy;
  }

  /** A name already used in the project is not refused: the service stores the policy under another. */
  async create(body: CertificatePolicyCreate): Promise<CertificatePolicy> {
    return (await this.t.call(certificatePolicyOperations.create, { body })).certificatePolicy;
  }

  async update(id: string, body: CertificatePolicyUpdate): Promise<CertificatePolicy> {
    return (await this.t.call(certificatePolicyOperations.update, { params: { id }, body })).certificatePolicy;
  }

  /** Refused (403) while a certificate profile uses the policy. */
  async delete(id: string): Promise<CertificatePolicy> {
    return (await this.t.call(certificatePolicyOperations.delete, { params: { id } })).certificatePolicy;
  }
}
