import { AuditLogFiltersSchema, AuditLogListEnvelope, AuditLogQuerySchema } from "../audit-logs";
import { apiPaths } from "../paths";
import { op } from "./operation";

/**
 * Audit logs. The emulator takes the service's own query (UTC dates, known event types); the SDK
 * sends `AuditLogFiltersSchema`'s output, which is a valid such query (see audit-logs.ts).
 */
export const auditLogOperations = {
  list: op({ method: "GET", path: apiPaths.auditLogs, query: AuditLogQuerySchema, response: AuditLogListEnvelope }),
};
/** The SDK's side of `auditLogOperations.list`: the filters it takes from callers. */
export const auditLogClientOperations = {
  list: op({ method: "GET", path: apiPaths.auditLogs, query: AuditLogFiltersSchema, response: AuditLogListEnvelope }),
};
