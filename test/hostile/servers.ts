import net from "node:net";
import { startCloudFront } from "../cloudfront/harness.ts";
import { startWorkerd } from "../edge/workerd.ts";
import type { Fixture } from "../serve/fixture.ts";
import {
  startCaddy,
  startNginx,
  startNginxSnippets,
  startServe,
  type Running,
} from "../serve/servers.ts";
import { requireTool } from "../support/requires.ts";

/**
 * Every server the catalogue configures, started on one build with the suites' own starters
 * (test/serve/servers.ts, test/edge/workerd.ts, test/cloudfront/harness.ts): `catalogue serve`,
 * nginx with the complete configuration and with the snippets, Caddy, the Worker in workerd and
 * the CloudFront harness. A server that refuses to start is an answer too: it is reported, not thrown.
 */

export type Started = { name: string; server: Running } | { name: string; failed: string };

export async function startEveryServer(fx: Fixture): Promise<Started[]> {
  const nginx = requireTool("nginx", "the hostile-input cross-server tests");
  const caddy = requireTool("caddy", "the hostile-input cross-server tests");
  const starters: [string, () => Promise<Running>][] = [
    ["serve", () => startServe(fx)],
    ["workerd", () => startWorkerd(fx.dist, "assets")],
    ["cloudfront", () => startCloudFront(fx.dist)],
  ];
  if (nginx !== null)
    starters.push(
      ["nginx", () => startNginx(nginx, fx)],
      ["nginx-snippets", () => startNginxSnippets(nginx, fx)],
    );
  if (caddy !== null) starters.push(["caddy", () => startCaddy(caddy, fx)]);
  const started: Started[] = [];
  // One at a time: two cores, and each start is heavy (workerd, s3rver and a publish).
  for (const [name, start] of starters) {
    try {
      started.push({ name, server: await start() });
    } catch (error) {
      started.push({ name, failed: String((error as Error).message ?? error).slice(0, 2000) });
    }
  }
  return started;
}

export async function stopEveryServer(started: readonly Started[]): Promise<void> {
  await Promise.all(started.flatMap((s) => ("server" in s ? [s.server.stop()] : [])));
}

export interface RawAnswer {
  status: number;
  /** Each header line's name (lower-cased) and value, as the bytes that came (no decoding, no validation). */
  headers: [string, Buffer][];
}

/**
 * One request over a raw socket, the answer's head read as bytes: an HTTP client library would
 * refuse (or repair) the very header values under test. The socket is not half-closed (`catalogue
 * serve` drops a request whose client closes its side); `Connection: close` ends the answer.
 */
export function rawRequest(port: number, host: string, target: string): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () =>
      socket.destroy(new Error(`no answer to GET ${target} within 20 s`)),
    );
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", fail);
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf("\r\n\r\n");
      const head = end < 0 ? bytes : bytes.subarray(0, end);
      const lines: Buffer[] = [];
      for (let start = 0; start < head.length;) {
        const next = head.indexOf("\r\n", start);
        lines.push(head.subarray(start, next < 0 ? head.length : next));
        start = next < 0 ? head.length : next + 2;
      }
      const status = Number(
        /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]?.toString("latin1") ?? "")?.[1] ?? 0,
      );
      const headers: [string, Buffer][] = [];
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        if (colon < 0) continue;
        let value = line.subarray(colon + 1);
        while (value.length > 0 && (value[0] === 0x20 || value[0] === 0x09))
          value = value.subarray(1);
        while (value.length > 0 && (value.at(-1) === 0x20 || value.at(-1) === 0x09))
          value = value.subarray(0, -1);
        headers.push([line.subarray(0, colon).toString("latin1").toLowerCase(), value]);
      }
      done({ status, headers });
    });
  });
}

/** The bytes of every header of that name (several when a server repeats it), joined by a line feed. */
export function headerBytes(answer: RawAnswer, name: string): Buffer | null {
  const values = answer.headers.filter(([n]) => n === name).map(([, v]) => v);
  return values.length === 0
    ? null
    : Buffer.concat(values.flatMap((v, i) => (i === 0 ? [v] : [Buffer.from("\n"), v])));
}
