import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A programmable HTTP server for the SDK's unit tests: each request is answered by the next
 * queued reply (or the fallback), and recorded. It is not an emulator of the service: it knows
 * nothing about routes beyond what a test queues.
 */

export interface Recorded {
  method: string;
  url: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number; raw?: string }
  | { reset: true }
  | { hang: true };

type Responder = Reply | ((req: Recorded) => Reply);

export interface StubServer {
  url: string;
  requests: Recorded[];
  /** Queue replies for the next requests, in order. */
  queue(...replies: Responder[]): void;
  /** Reply used when the queue is empty. */
  fallback(reply: Responder): void;
  close(): Promise<void>;
}

export async function startStub(): Promise<StubServer> {
  const requests: Recorded[] = [];
  const queued: Responder[] = [];
  let fallback: Responder = {
    status: 500,
    body: { reqId: "r", statusCode: 500, error: "NoReply", message: "no reply queued" },
  };
  const sockets = new Set<import("node:net").Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      const rec: Recorded = {
        method: req.method ?? "",
        url,
        path: url.split("?")[0]!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(rec);
      const responder = queued.length ? queued.shift()! : fallback;
      const reply = typeof responder === "function" ? responder(rec) : responder;
      if ("reset" in reply) {
        req.socket.destroy();
        return;
      }
      if ("hang" in reply) return; // never answer: the client times out
      const send = () => {
        const payload = reply.raw ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
        res.writeHead(reply.status, {
          "content-type": reply.raw ? "text/html" : "application/json",
          ...(reply.headers ?? {}),
        });
        res.end(payload);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue: (...r) => queued.push(...r),
    fallback: (r) => {
      fallback = r;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An error body as the service sends it (docs/service-api.md §6). */
export function errorBody(statusCode: number, error: string, message: unknown) {
  return { reqId: `req-${statusCode}`, statusCode, error, message };
}
