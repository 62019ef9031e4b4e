import axios, { type AxiosInstance, type AxiosResponse, type InternalAxiosRequestConfig } from "axios";
import axiosRetry from "axios-retry";
import type { z } from "zod";
import type { TokenSource } from "./auth";
import {
  type Issue,
  SecretOpsApiError,
  SecretOpsError,
  SecretOpsNetworkError,
  SecretOpsResponseError,
  SecretOpsValidationError,
  formatIssueList,
  issuesFromZod,
} from "./errors";
import {
  type RetryOptions,
  classifyFailure,
  defaultRetryOptions,
  isAmbiguousFailure,
  retryDelayMs,
  shouldRetry,
} from "./retry";
import { ErrorBodySchema } from "./schemas/common";
import {
  type HttpMethod,
  type Operation,
  type OperationInput,
  type OperationResult,
  fillPath,
} from "./schemas/operations/operation";
import { ATTEMPT_HEADER } from "./schemas/paths";
import { type Bucket, type RateLimitOptions, type Slot, Throttle } from "./throttle";

/**
 * The one generic call: operation input → schemas (and the operation's rules) → HTTP (auth,
 * throttle, retry) → response schema → typed result. Every SDK method is a thin `Transport.call`.
 */

/** What the `logger.onRequest` hook receives, once per attempt. Never headers or bodies. */
export interface RequestInfo {
  method: HttpMethod;
  /** Route path without the query string. */
  path: string;
  /** HTTP status, or null when there was no response (timeout, reset, refused). */
  status: number | null;
  /** Network error code when there was no response. */
  code?: string;
  durationMs: number;
  /** 1 for the first try, 2 for the first retry, … */
  attempt: number;
}

export interface SecretOpsLogger {
  onRequest?(info: RequestInfo): void;
}

export interface TransportOptions {
  baseUrl: string;
  /** Per attempt; default 60 000 ms (rotations run synchronously on the service). */
  timeoutMs?: number;
  retry?: false | RetryOptions;
  rateLimit?: false | RateLimitOptions;
  userAgent?: string;
  logger?: SecretOpsLogger;
  /** Jitter source, for tests. */
  random?: () => number;
}

interface RequestMeta {
  method: HttpMethod;
  path: string;
  bucket: Bucket;
  idempotent: boolean;
  startedAt?: number;
  /** The current attempt's place in the shared budget, handed back when the attempt ends. */
  slot?: Slot;
}

declare module "axios" {
  interface AxiosRequestConfig {
    /** Our per-request bookkeeping, read by the interceptors. */
    secretops?: RequestMeta;
  }
}

export class Transport {
  private readonly http: AxiosInstance;
  private readonly throttle: Throttle | undefined;
  private readonly logger: SecretOpsLogger | undefined;
  /** Set by the client once auth is known (the login itself goes through this transport). */
  tokens: TokenSource | undefined;

  /** The budget this transport paces a bucket by; undefined without pacing. */
  budget(bucket: Bucket): { limit: number; windowMs: number; spent: number } | undefined {
    return this.throttle?.budgetOf(bucket);
  }

  constructor(opts: TransportOptions) {
    this.logger = opts.logger;
    this.throttle = opts.rateLimit === false ? undefined : new Throttle(opts.baseUrl, opts.rateLimit ?? {});
    this.http = axios.create({
      baseURL: opts.baseUrl.replace(/\/+$/, ""),
      timeout: opts.timeoutMs ?? 60_000,
      headers: { Accept: "application/json", "User-Agent": opts.userAgent ?? "secretops-pulumi-sdk" },
      // Timeouts surface as ETIMEDOUT rather than the ambiguous ECONNABORTED.
      transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: true },
      // Redirects would re-send the Authorization header elsewhere; the API never redirects.
      maxRedirects: 0,
    });

    // Each attempt (retries included) takes a slot from the shared budget, then starts its clock.
    this.http.interceptors.request.use(async (config: InternalAxiosRequestConfig) => {
      const meta = config.secretops;
      if (meta && this.throttle) meta.slot = await this.throttle.acquire(meta.bucket);
      if (meta) meta.startedAt = Date.now();
      // Which try this is, as the AWS SDKs send `amz-sdk-request: attempt=N`: the service's
      // request logs (and the emulator's) can tell a retry from a new request.
      config.headers.set(ATTEMPT_HEADER, String((config["axios-retry"]?.retryCount ?? 0) + 1));
      return config;
    });

    // Registered before axios-retry, so it sees every attempt, failed ones included.
    this.http.interceptors.response.use(
      (res) => {
        this.log(res.config, res.status);
        this.answered(res.config, res.headers);
        return res;
      },
      (err: unknown) => {
        if (axios.isAxiosError(err) && err.config) {
          this.log(err.config, err.response?.status ?? null, err.code);
          this.answered(err.config, err.response?.headers);
        }
        return Promise.reject(err);
      },
    );

    if (opts.retry !== false) {
      const retry = { ...defaultRetryOptions, ...(opts.retry ?? {}) };
      const random = opts.random ?? Math.random;
      axiosRetry(this.http, {
        retries: Math.max(0, retry.maxAttempts - 1),
        // The timeout is per attempt, not a budget shared by all attempts.
        shouldResetTimeout: true,
        retryCondition: (err) =>
          shouldRetry(classifyFailure(err.response?.status, err.code), err.config?.secretops?.idempotent ?? false),
        retryDelay: (retryNumber, err) =>
          retryDelayMs(
            retryNumber,
            err.response ? { status: err.response.status, headers: err.response.headers } : undefined,
            retry,
            random,
          ),
      });
    }
  }

  /**
   * Calls one operation of the table (sdk/schemas/operations/): validates its params, query and
   * body and runs its service rules (throwing `SecretOpsValidationError` before anything is
   * sent), sends it, and parses the answer with its response schema.
   */
  async call<O extends Operation>(operation: O, input: OperationInput<O>): Promise<OperationResult<O>> {
    const { params, query, body } = validateRequest(operation, input as CallInput);
    const path = fillPath(operation.path, params);
    const meta: RequestMeta = {
      method: operation.method,
      path,
      bucket: operation.bucket ?? (operation.method === "GET" ? "read" : "write"),
      idempotent: operation.idempotent ?? operation.method !== "POST",
    };
    const data = await this.send(operation, path + toQueryString(query), body, meta);
    const parsed = operation.response.safeParse(data);
    if (!parsed.success) throw new SecretOpsResponseError(operation.method, path, issuesFromZod(parsed.error.issues));
    return parsed.data as OperationResult<O>;
  }

  private async send(
    operation: Operation,
    url: string,
    body: unknown,
    meta: RequestMeta,
    renewed = false,
  ): Promise<unknown> {
    let token: string | undefined;
    if (operation.auth !== false) {
      if (!this.tokens) throw new SecretOpsError("no credentials configured");
      token = await this.tokens.token();
    }
    let res: AxiosResponse;
    try {
      res = await this.http.request({
        method: operation.method,
        url,
        data: body,
        headers: {
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
          // axios labels a body-less POST as a form; the service (Fastify) rejects that media type.
          // `false` tells axios to send no Content-Type at all.
          ...(body === undefined ? { "Content-Type": false } : {}),
        },
        secretops: { ...meta },
      });
    } catch (err) {
      // An expired or revoked login token: renew once and repeat once. The service refused the
      // request before processing it, so this is safe for any method.
      if (token !== undefined && !renewed && isTokenRejection(err) && this.tokens!.rejected(token)) {
        return this.send(operation, url, body, meta, true);
      }
      // Never rethrow the axios error: its config carries the Authorization header and the body.
      throw toSdkError(err, meta);
    }
    return res.data;
  }

  /** Every attempt's end, and what its response advertises for its bucket, goes to the shared budget. */
  private answered(config: InternalAxiosRequestConfig, headers: unknown): void {
    const meta = config.secretops;
    if (meta && this.throttle) {
      this.throttle.answered(
        meta.bucket,
        headers && typeof headers === "object" ? (headers as Record<string, unknown>) : undefined,
        meta.slot,
      );
    }
  }

  private log(config: InternalAxiosRequestConfig, status: number | null, code?: string): void {
    const meta = config.secretops;
    if (!meta || !this.logger?.onRequest) return;
    const info: RequestInfo = {
      method: meta.method,
      path: meta.path,
      status,
      durationMs: Date.now() - (meta.startedAt ?? Date.now()),
      attempt: (config["axios-retry"]?.retryCount ?? 0) + 1,
    };
    if (status === null && code) info.code = code;
    try {
      this.logger.onRequest(info);
    } catch {
      // A logging hook must not break the request.
    }
  }
}

interface CallInput {
  params?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
}

/** Parses params, query and body with the operation's schemas, then runs its rules; throws before sending. */
function validateRequest(operation: Operation, input: CallInput): CallInput & { params?: Record<string, unknown> } {
  const issues: Issue[] = [];
  const parse = (schema: z.ZodType | undefined, value: unknown) => {
    if (!schema) return value;
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    issues.push(...issuesFromZod(r.error.issues));
    return undefined;
  };
  const params = parse(operation.params, input.params ?? {}) as Record<string, unknown> | undefined;
  const query = parse(operation.query, input.query ?? {});
  const body = parse(operation.body, input.body);
  if (operation.body && operation.rules && issues.length === 0) issues.push(...operation.rules(body as never));
  if (operation.query && operation.queryRules && issues.length === 0)
    issues.push(...operation.queryRules(query as never));
  if (issues.length) throw new SecretOpsValidationError(issues);
  return { params, query, body };
}

/** Query values as the service reads them: arrays comma-separated, booleans "true"/"false". */
export function toQueryString(query: unknown): string {
  if (!query || typeof query !== "object") return "";
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    sp.append(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : "";
}

function isTokenRejection(err: unknown): boolean {
  if (!axios.isAxiosError(err) || !err.response) return false;
  const { status, data } = err.response;
  return (
    status === 401 ||
    (status === 403 &&
      typeof data === "object" &&
      data !== null &&
      (data as { error?: unknown }).error === "TokenError")
  );
}

/** Map anything thrown by axios to an SDK error built from plain, non-secret fields. */
function toSdkError(err: unknown, meta: RequestMeta): SecretOpsError {
  if (err instanceof SecretOpsError) return err;
  const { method, path } = meta;
  if (axios.isAxiosError(err)) {
    const status = err.response?.status;
    const ambiguous = isAmbiguousFailure(classifyFailure(status, err.code), meta.idempotent);
    if (err.response && status !== undefined) return apiError(status, err.response.data, { method, path, ambiguous });
    return new SecretOpsNetworkError({ code: err.code ?? "ERR_NETWORK", method, path, ambiguous });
  }
  // Not from axios (should not happen): keep only the class name, the message could be anything.
  return new SecretOpsError(`${method} ${path} failed: ${err instanceof Error ? err.name : "unknown error"}`);
}

function apiError(
  status: number,
  data: unknown,
  f: { method: HttpMethod; path: string; ambiguous: boolean },
): SecretOpsApiError {
  const body = ErrorBodySchema.safeParse(data);
  if (!body.success) {
    // Not the service's error shape (a proxy page, an empty body): say only what we know.
    return new SecretOpsApiError({
      ...f,
      status,
      error: `HTTP ${status}`,
      message: `request failed with status ${status}`,
    });
  }
  const { message, error, reqId } = body.data;
  if (typeof message === "string") return new SecretOpsApiError({ ...f, status, error, reqId, message });
  // A 422 carries the service's zod issues.
  const issues = message.map((i) => ({
    path: Array.isArray(i.path) ? i.path.map(String).join(".") : "",
    message: typeof i.message === "string" ? i.message : "invalid",
  }));
  return new SecretOpsApiError({ ...f, status, error, reqId, message: formatIssueList(issues), issues });
}
