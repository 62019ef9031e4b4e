import type * as dynamic from "@pulumi/pulumi/dynamic";
import { formatIssue } from "../sdk/schemas/issues";

/**
 * Runs in the provider process: how the provider speaks to the engine, one message per problem, in
 * the `field.path: rule` words the SDK and the emulator use for the same mistake.
 *
 * - A check failure is reported on the resource (`<type> resource '<name>' has a problem: <path>:
 *   <rule>`). Named by property it would print as `property <p> value {<inputs[p]>} has a problem`:
 *   the value looked up among the top-level inputs only (`{<nil>}` for a nested path such as
 *   `destinationConfig.scope`), and printed in plaintext, a secret's too.
 * - The dynamic-provider host (@pulumi/pulumi's cmd/dynamic-provider) logs every error that
 *   `check`, `diff`, `read` or `delete` throws as `${e}: ${e.stack}` on stderr before it hands the
 *   error to the engine, which shows it on the resource: a failure printed twice, the second time
 *   at stack level with a JavaScript stack trace. The host's echo of an error this process returned
 *   is dropped, unless the engine runs the provider verbosely (`--logflow -v=N` passes `-v=N` on),
 *   where the stack trace is what a developer wants.
 */

/** The host's echoes still to come: what it prints for each error we returned. */
const pending = new Set<string>();
/** The console.error filter this module installed, once. */
const filters = new WeakSet<typeof console.error>();

const verbose = () => process.argv.some((a) => /^-v=[1-9]/.test(a) || a === "--logtostderr");

/** Whether the host's echoes are dropped (not when verbose), filtering console.error once. */
function dropHostEchoes(): boolean {
  if (verbose()) return false;
  if (filters.has(console.error)) return true;
  const print = console.error.bind(console);
  const filter = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && pending.delete(args[0])) return;
    print(...args);
  };
  filters.add(filter);
  console.error = filter;
  return true;
}

const onTheResource = (failures: readonly dynamic.CheckFailure[]): dynamic.CheckFailure[] =>
  failures.map((f) => ({
    property: "",
    reason: f.property ? formatIssue({ path: f.property, message: f.reason }) : f.reason,
  }));

/** The provider as the engine calls it: failures on the resource, each error reported once. */
export function forTheEngine(provider: dynamic.ResourceProvider): dynamic.ResourceProvider {
  const dropping = dropHostEchoes();
  const once =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await method(...args);
      } catch (e) {
        if (dropping && e instanceof Error) pending.add(`${String(e)}: ${e.stack}`);
        throw e;
      }
    };
  const check = provider.check;
  // The generic provider's methods use no `this`.
  return {
    check:
      check &&
      once(async (olds, news) => {
        const result = await check(olds, news);
        return result.failures ? { ...result, failures: onTheResource(result.failures) } : result;
      }),
    diff: provider.diff && once(provider.diff),
    create: once(provider.create),
    read: provider.read && once(provider.read),
    update: provider.update && once(provider.update),
    delete: provider.delete && once(provider.delete),
  };
}

/**
 * Where warnings go instead of the engine: none in the provider process, which has the engine's
 * address; a test of the provider methods collects them here.
 */
let warningSink: ((message: string) => void) | undefined;
export function collectWarnings(sink: ((message: string) => void) | undefined): void {
  warningSink = sink;
}

/** The engine's address, the one argument both hosts get that is a host and a port. */
const engineAddress = () => process.argv.slice(2).find((a) => /^[^-].*:\d+$/.test(a));

type EngineLog = (message: string) => Promise<void>;
let engineLog: EngineLog | undefined;

/** A client of the engine's `Log`, as @pulumi/pulumi's own `log.warn` uses it in a program. */
function engineLogger(address: string): EngineLog {
  const from = { paths: [require("node:path").dirname(require.resolve("@pulumi/pulumi/package.json"))] };
  const grpc: typeof import("@grpc/grpc-js") = require(require.resolve("@grpc/grpc-js", from));
  const { EngineClient } = require("@pulumi/pulumi/proto/engine_grpc_pb");
  const { LogRequest, LogSeverity } = require("@pulumi/pulumi/proto/engine_pb");
  const client = new EngineClient(address, grpc.credentials.createInsecure());
  return (message) =>
    new Promise((resolve) => {
      const req = new LogRequest().setSeverity(LogSeverity.WARNING).setMessage(message);
      // A warning that cannot be delivered goes to stderr, which the engine shows too.
      client.log(req, (err: Error | null) => {
        if (err) console.error(`warning: ${message}`);
        resolve();
      });
    });
}

/**
 * A warning in the operation's output (`warning:`), at the stack: the dynamic-provider host
 * passes a step no URN, so the message names the resource and the object itself. Resolves once
 * the engine has it.
 */
export async function warn(message: string): Promise<void> {
  if (warningSink) return warningSink(message);
  const address = engineAddress();
  if (!address) return void console.error(`warning: ${message}`);
  engineLog ??= engineLogger(address);
  await engineLog(message);
}
