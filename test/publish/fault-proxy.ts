import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { random } from "../../scripts/generate.ts";
import { asyncHandler } from "../support/async-handler.ts";

/**
 * A proxy on loopback in front of an S3 server that injects faults, chosen by a seeded
 * generator so that a failing run can be repeated: 500 InternalError and 503 SlowDown answers,
 * connections reset in the middle of an upload, slow answers, and requests that stall (no answer
 * until the client gives up). It logs every write the server accepted (PUT, DELETE, and the keys
 * of a multi-object delete), in the order the server completed them, with the bytes written.
 */

export interface FaultRates {
  error500: number;
  slowDown: number;
  reset: number;
  slow: number;
  stall: number;
}

export interface Write {
  op: "put" | "delete";
  /** The object key, bucket excluded. */
  key: string;
  body?: Buffer;
}

export interface FaultProxy {
  endpoint: string;
  /** Accepted writes since start, in completion order. */
  writes: Write[];
  /** Faults injected, by kind. */
  injected: Record<keyof FaultRates, number>;
  /** Requests forwarded to the server. */
  forwarded: number;
  setRates(rates: Partial<FaultRates>): void;
  stop(): Promise<void>;
}

/** The seeded generator the test data is made with (mulberry32). */
export const seeded = random;

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

const errorXml = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>injected by the test proxy</Message></Error>`;

/** `keepWrites: false` only counts requests (a benchmark: the bodies of a whole site would fill memory). */
export async function startFaultProxy(
  upstream: string,
  seed: number,
  rates: Partial<FaultRates> = {},
  keepWrites = true,
): Promise<FaultProxy> {
  const random = seeded(seed);
  let current: FaultRates = { error500: 0, slowDown: 0, reset: 0, slow: 0, stall: 0, ...rates };
  const target = new URL(upstream);
  const stalled = new Set<IncomingMessage>();
  const proxy: FaultProxy = {
    endpoint: "",
    writes: [],
    injected: { error500: 0, slowDown: 0, reset: 0, slow: 0, stall: 0 },
    forwarded: 0,
    setRates(next) {
      current = { ...current, ...next };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const req of stalled) req.socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer(
    asyncHandler(async (req, res) => {
      const roll = random();
      const slowFor = 50 + Math.floor(random() * 300);
      let fault: keyof FaultRates | null = null;
      let edge = 0;
      for (const kind of ["stall", "reset", "error500", "slowDown", "slow"] as const) {
        edge += current[kind];
        if (roll < edge) {
          fault = kind;
          proxy.injected[kind]++;
          break;
        }
      }
      if (fault === "stall") {
        // Never answered: the client's request timeout ends it.
        stalled.add(req);
        req.resume();
        return;
      }
      if (fault === "reset") {
        // Cut in the middle of the request (an upload half sent): no answer at all.
        req.once("data", () => req.socket.destroy());
        req.once("end", () => req.socket.destroy());
        req.resume();
        return;
      }
      const body = await readBody(req);
      if (fault === "error500" || fault === "slowDown") {
        res.writeHead(fault === "slowDown" ? 503 : 500, { "content-type": "application/xml" });
        res.end(errorXml(fault === "slowDown" ? "SlowDown" : "InternalError"));
        return;
      }
      if (fault === "slow") await new Promise((resolve) => setTimeout(resolve, slowFor));
      proxy.forwarded++;
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (c: Buffer) => chunks.push(c));
          answer.on("end", () => {
            const status = answer.statusCode ?? 500;
            if (keepWrites && status >= 200 && status < 300) logWrite(req, body);
            res.writeHead(status, answer.headers);
            res.end(Buffer.concat(chunks));
          });
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    }),
  );

  function logWrite(req: IncomingMessage, body: Buffer) {
    const url = new URL(req.url!, "http://proxy");
    const key = decodeURIComponent(url.pathname.split("/").slice(2).join("/"));
    if (req.method === "PUT") proxy.writes.push({ op: "put", key, body });
    else if (req.method === "DELETE") proxy.writes.push({ op: "delete", key });
    else if (req.method === "POST" && url.searchParams.has("delete")) {
      for (const match of body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)) {
        proxy.writes.push({
          op: "delete",
          key: match[1]!
            .replace(/&amp;/g, "&")
            .replace(/&lt;/g, "<")
            .replace(/&gt;/g, ">")
            .replace(/&quot;/g, '"')
            .replace(/&apos;/g, "'"),
        });
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
