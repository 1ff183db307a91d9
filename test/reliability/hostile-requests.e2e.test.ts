import { readFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFlat, soak, soakRequests, startServe, type ServeProcess } from "../../scripts/soak.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";

/**
 * `catalogue serve` (the real command line, a child process) under hostile and heavy traffic:
 * random and malformed requests never get a 5xx nor kill it; slow clients are cut off by its
 * timeouts (headers within 10 s, an idle keep-alive connection after 5 s); a soak at 100
 * connections ends with no error and flat memory.
 */

let dir: string;
let cleanup: () => Promise<void>;
let out: string;
let server: ServeProcess;
const API = "/api/v1/videos/audiovisuals/";

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-requests-"));
  const content = await generatedContent(dir, { works: 120, domains: 2, covers: 4 });
  out = path.join(dir, "dist");
  await buildFixture(content, out);
  server = await startServe(out);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await cleanup();
});

interface RawReply {
  statuses: number[];
  /** How the connection ended: the server closed it, or the client gave up after the deadline. */
  closedBy: "server" | "client" | "error";
  ms: number;
}

/**
 * Writes bytes (all at once, or one byte every `drip` ms) and collects the status lines until the
 * socket closes, the `deadline` passes, or (with `settle`) no byte came for `settle` ms after the
 * last one (an answered keep-alive connection). The client never half-closes: Node's server drops
 * a request whose client sent FIN before the answer was ready.
 */
function raw(
  request: Buffer | string,
  options: { deadline?: number; drip?: number; settle?: number } = {},
): Promise<RawReply> {
  const bytes = Buffer.from(request);
  const started = performance.now();
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let closedBy: RawReply["closedBy"] = "server";
    let timer: NodeJS.Timeout | undefined;
    const socket = net.connect(server.port, "127.0.0.1", () => {
      if (options.drip === undefined) {
        socket.write(bytes);
        return;
      }
      let at = 0;
      timer = setInterval(() => {
        if (at < bytes.length && !socket.destroyed) socket.write(bytes.subarray(at, ++at));
      }, options.drip);
    });
    const deadline = setTimeout(() => {
      closedBy = "client";
      socket.destroy();
    }, options.deadline ?? 5_000);
    let quiet: NodeJS.Timeout | undefined;
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      if (options.settle === undefined) return;
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        closedBy = "client";
        socket.destroy();
      }, options.settle);
    });
    socket.on("error", () => (closedBy = closedBy === "client" ? "client" : "error"));
    socket.on("close", () => {
      clearTimeout(deadline);
      clearTimeout(quiet);
      clearInterval(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      const statuses = [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map((m) =>
        Number(m[1]),
      );
      done({ statuses, closedBy, ms: performance.now() - started });
    });
  });
}

// ---- the request generator -------------------------------------------------------------

const SEGMENTS = [
  "api",
  "v1",
  "videos",
  "audiovisuals",
  "export_excel",
  "export_up_movies",
  "_api",
  "_catalogue",
  "list",
  "detail",
  "media",
  "..",
  ".",
  "%2e%2e",
  "%2E%2e%2f",
  "%2f",
  "%5c",
  "%00",
  "%",
  "%zz",
  "%c3%28",
  "%ff",
  "",
  "~",
  "index.html",
  "files.tsv",
  "1",
  "0",
  "-1",
  "007",
  "99999999999",
  "ü",
  "%C3%BC",
  "\u202e",
  "<script>",
  "'",
  '"',
  ";",
  "*",
  "a".repeat(300),
  "🎬",
];
const QUERY_NAMES = [
  "format",
  "ordering",
  "page",
  "FORMAT",
  "Page",
  "x",
  "",
  "page[]",
  "format%00",
  "&",
  "=",
];
const QUERY_VALUES = [
  "api",
  "json",
  "xml",
  "API",
  "name",
  "-name",
  "year",
  "-year",
  "last",
  "1",
  "2",
  "01",
  "+1",
  " 1",
  "0",
  "-1",
  "%31",
  "",
  "999999999",
  "1e3",
  "<script>",
  "a".repeat(2000),
  "%",
  "\u00e9",
];
const HOSTS = [
  "domain-1.example",
  "DOMAIN-2.EXAMPLE:8080",
  "domain-1.example.",
  "evil.example",
  "",
  "a b",
  "[::1]",
  "domain-1.example:99999",
  "\u00e9.example",
  "x".repeat(300),
];
const METHODS = [
  "GET",
  "GET",
  "GET",
  "HEAD",
  "OPTIONS",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "TRACE",
  "CONNECT",
  "PROPFIND",
  "FOO",
  "get",
  "G\u00c9T",
  "",
  "GET GET",
];
const VERSIONS = [
  "HTTP/1.1",
  "HTTP/1.1",
  "HTTP/1.1",
  "HTTP/1.0",
  "HTTP/2.0",
  "HTTP/0.9",
  "HTTP/9.9",
  "http/1.1",
  "",
  "HTTP/1.1 extra",
  "HTTP/1.10",
];
const HEADER_LINES = [
  "Accept-Encoding: gzip, br",
  "Accept-Encoding: br;q=0, gzip;q=1.5, *",
  "Accept-Encoding: \u00ff\u00ff",
  "If-None-Match: *",
  'If-None-Match: W/"x", "y"',
  "Range: bytes=0-10",
  "Range: bytes=-1,5-",
  "Content-Length: 5",
  "Content-Length: -1",
  "Content-Length: 99999999999999999999",
  "Content-Length: 1\r\nContent-Length: 2",
  "Transfer-Encoding: chunked",
  "Transfer-Encoding: chunked, identity",
  "Expect: 100-continue",
  "Connection: keep-alive",
  "Connection: upgrade\r\nUpgrade: websocket",
  "X-Forwarded-For: 1.2.3.4",
  "Accept: */*",
  " folded: header",
  "No-Colon",
  ": empty-name",
  "X-Long: " + "v".repeat(20_000),
  "X-Nul: a\u0000b",
  "Cookie: a=b; c=d",
  "Authorization: Basic Zm9vOmJhcg==",
];

// Well-formed requests exercise the routing (paths, queries, hosts, methods, validators); broken
// ones the parser. Most are well-formed, or nearly everything would stop at a 400.
const SAFE_SEGMENTS = SEGMENTS.filter((s) => /^[A-Za-z0-9._~%!$&'()*+,;=:@-]*$/.test(s));
const SAFE_HEADERS = HEADER_LINES.filter(
  (h) =>
    /^[A-Za-z-]+: [\x20-\x7e]*$/.test(h) &&
    !/Content-Length|Transfer-Encoding|Expect|Upgrade/.test(h),
);
const METHODS_OK = [
  "GET",
  "GET",
  "GET",
  "GET",
  "HEAD",
  "OPTIONS",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "PROPFIND",
];
const HOSTS_OK = [
  "domain-1.example",
  "DOMAIN-2.EXAMPLE:8080",
  "domain-1.example.",
  "evil.example",
  "[::1]:80",
];

const pathFrom = (segments: readonly string[]) =>
  fc.oneof(
    fc.array(fc.constantFrom(...segments), { maxLength: 8 }).map((s) => `/${s.join("/")}`),
    fc
      .array(
        fc.constantFrom(
          "export_excel",
          "export_down_movies",
          "1",
          "2",
          "17",
          "0",
          "abc",
          "%31",
          "export_excel/x",
        ),
        { maxLength: 1 },
      )
      .map((s) => API + (s.length ? `${s[0]}/` : "")),
    fc.constantFrom(
      API.slice(0, -1),
      `${API}1`,
      "//api/v1/videos/audiovisuals/",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/" + "a".repeat(9000),
      "/_api/list/plain/default/1.json",
      "/media/",
      "/media/x.jpeg",
    ),
  );
const query = fc.oneof(
  fc.constant(""),
  fc
    .tuple(
      fc.array(
        fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.constantFrom(...QUERY_VALUES), fc.boolean()),
        { maxLength: 5 },
      ),
      fc.constantFrom("&", ";", "&&"),
    )
    .map(
      ([pairs, joiner]) =>
        "?" + pairs.map(([n, v, bare]) => (bare && v === "" ? n : `${n}=${v}`)).join(joiner),
    ),
);
const wellFormed = fc
  .record({
    method: fc.constantFrom(...METHODS_OK),
    path: pathFrom(SAFE_SEGMENTS),
    query: query.map((q) => q.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c))),
    version: fc.constantFrom("HTTP/1.1", "HTTP/1.1", "HTTP/1.0"),
    host: fc.constantFrom(...HOSTS_OK),
    headers: fc.array(fc.constantFrom(...SAFE_HEADERS), { maxLength: 4 }),
    close: fc.boolean(),
  })
  .map((r) => {
    const lines = [`${r.method} ${r.path}${r.query} ${r.version}`, `Host: ${r.host}`, ...r.headers];
    if (r.close) lines.push("Connection: close");
    return Buffer.from(lines.join("\r\n") + "\r\n\r\n", "latin1");
  });
const broken = fc
  .record({
    method: fc.constantFrom(...METHODS),
    path: pathFrom(SEGMENTS).chain((p) => fc.constantFrom(p, "*", "http://domain-1.example/")),
    query,
    version: fc.constantFrom(...VERSIONS),
    host: fc.option(fc.constantFrom(...HOSTS), { nil: undefined }),
    headers: fc.array(fc.constantFrom(...HEADER_LINES), { maxLength: 4 }),
    randomHeader: fc.option(
      fc.tuple(
        fc.string({ unit: "binary-ascii", maxLength: 20 }),
        fc.string({ unit: "binary-ascii", maxLength: 40 }),
      ),
      { nil: undefined, freq: 3 },
    ),
    eol: fc.constantFrom("\r\n", "\r\n", "\r\n", "\n"),
    body: fc.constantFrom("", "", "hello", "0\r\n\r\n", "5\r\nhello\r\n0\r\n\r\n", "zz\r\n"),
    close: fc.boolean(),
  })
  .map((r) => {
    const lines = [`${r.method} ${r.path}${r.query} ${r.version}`.trimEnd()];
    if (r.host !== undefined) lines.push(`Host: ${r.host}`);
    lines.push(...r.headers);
    if (r.randomHeader) lines.push(`${r.randomHeader[0]}: ${r.randomHeader[1]}`);
    if (r.close) lines.push("Connection: close");
    return Buffer.from(lines.join(r.eol) + r.eol + r.eol + r.body, "latin1");
  });
// Pure noise, and valid requests with bytes flipped.
const noise = fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes));
const flipped = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
  const request = Buffer.from(
    `GET ${API}?page=2 HTTP/1.1\r\nHost: domain-1.example\r\nConnection: close\r\n\r\n`,
  );
  request[at % request.length] = byte;
  return request;
});
const hostileRequest = fc.oneof(
  { weight: 12, arbitrary: wellFormed },
  { weight: 6, arbitrary: broken },
  { weight: 1, arbitrary: noise },
  { weight: 1, arbitrary: flipped },
);

async function mapConcurrent<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!);
      }
    }),
  );
  return results;
}

async function normalRequestWorks() {
  const reply = await raw(
    `GET ${API}?page=1 HTTP/1.1\r\nHost: domain-1.example\r\nConnection: close\r\n\r\n`,
  );
  expect(reply.statuses).toEqual([200]);
}

describe("hostile requests to catalogue serve", () => {
  it("2,000 random and malformed requests: no 5xx, no crash, and slow clients are cut off meanwhile", async () => {
    const requests = fc.sample(hostileRequest, { numRuns: 2000, seed: 20261121 });
    const started = performance.now();
    // Slow clients run alongside the fuzz: they must not hold the server, and its timeouts end them.
    const slow = Promise.all([
      // Headers one byte per second: headersTimeout (10 s) ends it, checked every second.
      raw(`GET ${API} HTTP/1.1\r\nHost: domain-1.example\r\nX-Slow: ${"s".repeat(100)}\r\n\r\n`, {
        drip: 1000,
        deadline: 20_000,
      }),
      // A complete request, then silence on a keep-alive connection: closed after keepAliveTimeout (5 s).
      raw(`GET ${API} HTTP/1.1\r\nHost: domain-1.example\r\n\r\n`, { deadline: 20_000 }),
    ]);

    const replies = await mapConcurrent(requests, 16, (request) =>
      raw(request, { deadline: 3_000, settle: 300 }),
    );
    const seconds = (performance.now() - started) / 1000;
    const statuses = new Map<number, number>();
    for (const reply of replies)
      for (const status of reply.statuses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const fiveHundreds = replies.flatMap((reply, i) =>
      reply.statuses.some((s) => s >= 500) ? [requests[i]!.toString("latin1").slice(0, 200)] : [],
    );
    expect(fiveHundreds).toEqual([]);
    expect(server.errors).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    // Not vacuous: most requests got an answer, of many kinds.
    const answered = replies.filter((r) => r.statuses.length > 0).length;
    expect(answered).toBeGreaterThan(1500);
    for (const status of [200, 301, 400, 404, 405])
      expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(60);

    const [dripped, idle] = await slow;
    expect(dripped.closedBy).toBe("server");
    expect(dripped.ms).toBeGreaterThan(9_000);
    expect(dripped.ms).toBeLessThan(15_000);
    expect(dripped.statuses.every((s) => s === 408)).toBe(true);
    expect(idle.closedBy).toBe("server");
    expect(idle.statuses).toEqual([200]);
    expect(idle.ms).toBeGreaterThan(4_000);
    expect(idle.ms).toBeLessThan(10_000);
    await normalRequestWorks();
  }, 120_000);

  it("a 10-second soak at 100 connections: no error, no 5xx, flat memory", async () => {
    const result = await soak(server, await soakRequests(out), 10, 100);
    expect(result.requests).toBeGreaterThan(1000);
    expect({
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      serverErrors: result.serverErrors,
    }).toEqual({
      errors: 0,
      timeouts: 0,
      non2xx: 0,
      serverErrors: 0,
    });
    expect(isFlat(result)).toBe(true);
    await normalRequestWorks();
    expect(await readFile(path.join(out, "_catalogue/build.json"), "utf8")).toContain(
      "domain-1.example",
    );
  }, 60_000);
});
