import { PutObjectCommand } from "@aws-sdk/client-s3";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import vm from "node:vm";
import { gzipSync } from "node:zlib";
import { writeCloudFrontFiles } from "../../src/edge/cloudfront-files.ts";
import { readBuildInfo } from "../../src/output/build-info.ts";
import { headersFor } from "../../src/publish/targets/file-headers.ts";
import { catalogue } from "../support/command.ts";
import { s3Client, startS3rver, type S3rver } from "../support/s3.ts";
import { DISCOVERY, SHARED } from "../serve/fixture.ts";
import { asyncHandler } from "../support/async-handler.ts";

/**
 * CloudFront played on loopback, as far as the catalogue's configuration meets it: the files of
 * `catalogue config cloudfront` in front of s3rver filled by `catalogue publish --to
 * s3://BUCKET/PREFIX`. Per request: the viewer-request event built as CloudFront builds it, the
 * function run in a `node:vm` context holding only what cloudfront-js-2.0 offers (the language's
 * built-ins, `console`, and the `cloudfront` module's KeyValueStore over key-value-store.json), its
 * answer sent, or its request applied to the bucket under the origin path PREFIX; then the
 * response headers policy, and compression as a cache policy with compression on does it.
 */

export const BUCKET = "catalogue-cf";
export const PREFIX = "site/prod";
/** Methods a behaviour can allow; CloudFront refuses any other before functions run (403). */
const CLOUDFRONT_METHODS = ["GET", "HEAD", "OPTIONS", "PUT", "POST", "PATCH", "DELETE"];
/** CloudFront compresses these types, from 1,000 bytes to 10 MB, for a 200 of a request without Range. */
const COMPRESSED =
  /^(text\/|application\/(json|javascript|xml|atom\+xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

/** CloudFront's quota on a request's URL. */
const MAX_URL = 8192;

type Handler = (event: unknown) => Promise<Record<string, any>>;

interface Policy {
  CorsConfig: { AccessControlAllowOrigins: { Items: string[] } };
  SecurityHeadersConfig: Record<string, any>;
  CustomHeadersConfig: { Items: { Header: string; Value: string; Override: boolean }[] };
}

/** The function as CloudFront runs it: top-level `handler`, `import cf from "cloudfront"` bound to the store. */
export function loadFunction(code: string, store: Map<string, string>): Handler {
  const importLine = /^import cf from "cloudfront";$/m;
  if (!importLine.test(code))
    throw new Error("function.js does not import the cloudfront module as expected");
  const cf = {
    kvs: () => ({
      async get(key: string) {
        if (!store.has(key)) throw new Error(`KeyValueStore: no key ${key}`);
        return store.get(key)!;
      },
    }),
  };
  const context = vm.createContext({ cf, console });
  return new vm.Script(`${code.replace(importLine, "")}\n;handler`, {
    filename: "function.js",
  }).runInContext(context) as Handler;
}

/** The viewer-request event of a raw request: uri and query as sent, headers lower-cased. */
export function viewerEvent(req: http.IncomingMessage): unknown {
  const target = req.url ?? "/";
  const mark = target.indexOf("?");
  const querystring: Record<string, { value: string; multiValue?: { value: string }[] }> = {};
  if (mark >= 0) {
    for (const part of target.slice(mark + 1).split("&")) {
      if (part === "") continue;
      const eq = part.indexOf("=");
      const name = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? "" : part.slice(eq + 1);
      const entry = querystring[name];
      if (entry === undefined) querystring[name] = { value };
      else (entry.multiValue ??= [{ value: entry.value }]).push({ value });
    }
  }
  const headers: Record<string, { value: string }> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (name !== "cookie" && headers[name] === undefined)
      headers[name] = { value: req.rawHeaders[i + 1]! };
  }
  return {
    version: "1.0",
    context: { eventType: "viewer-request" },
    viewer: { ip: req.socket.remoteAddress },
    request: {
      method: req.method,
      uri: mark < 0 ? target : target.slice(0, mark),
      querystring,
      headers,
      cookies: {},
    },
  };
}

/** The response headers policy applied to an answer's headers (lower-cased names). */
function applyPolicy(policy: Policy, headers: Record<string, string>, origin: boolean) {
  const security = policy.SecurityHeadersConfig;
  headers["x-content-type-options"] = "nosniff";
  headers["referrer-policy"] = security.ReferrerPolicy.ReferrerPolicy;
  headers["content-security-policy"] = security.ContentSecurityPolicy.ContentSecurityPolicy;
  if (security.StrictTransportSecurity)
    headers["strict-transport-security"] =
      `max-age=${security.StrictTransportSecurity.AccessControlMaxAgeSec}`;
  for (const { Header, Value, Override } of policy.CustomHeadersConfig.Items) {
    if (Override || headers[Header.toLowerCase()] === undefined)
      headers[Header.toLowerCase()] = Value;
  }
  // CORS headers go on answers to requests that carry an Origin (what browsers send across origins).
  if (origin)
    headers["access-control-allow-origin"] = policy.CorsConfig.AccessControlAllowOrigins.Items[0]!;
}

export interface RunningCloudFront {
  port: number;
  /** Publishes the build `dist` shows now, and its page counts to the store. */
  deploy(): Promise<void>;
  stop(): Promise<void>;
}

export async function startCloudFront(dist: string): Promise<RunningCloudFront> {
  const s3: S3rver = await startS3rver([BUCKET]);
  const out = await mkdtemp(path.join(tmpdir(), "catalogue-cloudfront-"));
  let handler: Handler;
  let policy: Policy;
  const store = new Map<string, string>();

  const deploy = async () => {
    const published = await catalogue(
      ["publish", "--dir", dist, "--to", `s3://${BUCKET}/${PREFIX}`, "--endpoint", s3.endpoint],
      { env: s3.env },
    );
    if (published.code !== 0)
      throw new Error(`publish exited with ${published.code}: ${published.stderr}`);
    // The fixture's hand-placed pages are in no manifest: uploaded as publish would.
    const info = await readBuildInfo(dist);
    const client = s3Client(s3.endpoint);
    const placed = [
      ...Object.keys(DISCOVERY),
      ...Object.keys(SHARED),
      "domain-2.example/cataleg/index.html",
      "domain-2.example/cataleg/sub/index.html",
      "domain-2.example/cataleg/404.html",
    ];
    for (const rel of placed) {
      const h = headersFor(rel, info);
      await client.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `${PREFIX}/${rel}`,
          Body: await readFile(path.join(dist, rel)),
          ContentType: h.contentType,
          CacheControl: h.cacheControl,
        }),
      );
    }
    client.destroy();
    await writeCloudFrontFiles({ dir: dist, out });
    handler = loadFunction(await readFile(path.join(out, "function.js"), "utf8"), store);
    policy = JSON.parse(
      await readFile(path.join(out, "response-headers-policy.json"), "utf8"),
    ) as Policy;
    store.clear();
    for (const { key, value } of JSON.parse(
      await readFile(path.join(out, "key-value-store.json"), "utf8"),
    ).data)
      store.set(key, value);
  };
  await deploy();

  const server = http.createServer(
    asyncHandler(async (req, res) => {
      try {
        const method = req.method ?? "GET";
        const origin = req.headers.origin !== undefined;
        if ((req.url ?? "").length > MAX_URL) {
          res.writeHead(414, { "content-type": "text/html" }).end("<h1>414 ERROR</h1>");
          return;
        }
        if (!CLOUDFRONT_METHODS.includes(method)) {
          res.writeHead(403, { "content-type": "text/html" }).end("<h1>403 ERROR</h1>");
          return;
        }
        const result = await handler(viewerEvent(req));
        let status: number;
        let headers: Record<string, string> = {};
        let body: Buffer;
        if (typeof result.statusCode === "number") {
          status = result.statusCode;
          for (const [name, { value }] of Object.entries<{ value: string }>(result.headers ?? {}))
            headers[name] = value;
          body = Buffer.from(result.body?.data ?? "");
        } else {
          ({ status, headers, body } = await fromBucket(
            s3.endpoint,
            result as { uri: string },
            req,
          ));
        }
        applyPolicy(policy, headers, origin);
        const type = headers["content-type"] ?? "";
        const fromFunction = typeof result.statusCode === "number";
        // A HEAD from the bucket has no body: its size is the length S3 announces.
        const size =
          method === "HEAD" && !fromFunction ? Number(headers["content-length"] ?? 0) : body.length;
        if (
          status === 200 &&
          size >= 1000 &&
          COMPRESSED.test(type) &&
          req.headers.range === undefined
        ) {
          headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
          if (/\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
            body = gzipSync(body);
            headers["content-encoding"] = "gzip";
            if (method === "HEAD") delete headers["content-length"];
            if (headers.etag && !headers.etag.startsWith("W/")) headers.etag = `W/${headers.etag}`;
          }
        }
        if (method !== "HEAD" || fromFunction) headers["content-length"] = String(body.length);
        res.writeHead(status, headers);
        res.end(method === "HEAD" ? undefined : body);
      } catch (error) {
        res
          .writeHead(502, { "content-type": "text/plain" })
          .end(`harness: ${(error as Error).stack}`);
      }
    }),
  );
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    port: (server.address() as AddressInfo).port,
    deploy,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await s3.stop();
      await rm(out, { recursive: true, force: true });
    },
  };
}

const KEPT = [
  "content-type",
  "content-length",
  "etag",
  "cache-control",
  "content-disposition",
  "last-modified",
  "accept-ranges",
  "content-range",
];

/**
 * The origin request: the function's URI under the origin path, no query (the function cleared
 * it), the validators and range CloudFront forwards. S3 answers If-Range itself as RFC 9110 says
 * (a strong ETag that matches: the range; anything else: the whole object); so does this.
 */
async function fromBucket(endpoint: string, request: { uri: string }, req: http.IncomingMessage) {
  const forwarded: Record<string, string> = {};
  for (const name of ["range", "if-none-match"] as const)
    if (req.headers[name] !== undefined) forwarded[name] = String(req.headers[name]);
  const url = `${endpoint}/${BUCKET}/${PREFIX}${request.uri}`;
  const ifRange = req.headers["if-range"];
  if (
    forwarded.range !== undefined &&
    (ifRange !== undefined || /^bytes=-\d+$/.test(forwarded.range))
  ) {
    const head = await fetch(url, { method: "HEAD" });
    if (ifRange !== undefined && ifRange !== head.headers.get("etag")) delete forwarded.range;
    // s3rver reads a suffix range as a start; S3 answers the last N bytes, as asked here.
    const suffix = /^bytes=-(\d+)$/.exec(forwarded.range ?? "");
    if (suffix !== null)
      forwarded.range = `bytes=${Math.max(0, Number(head.headers.get("content-length")) - Number(suffix[1]))}-`;
  }
  const answer = await fetch(url, {
    method: req.method === "HEAD" ? "HEAD" : "GET",
    headers: forwarded,
  });
  const headers: Record<string, string> = {};
  for (const name of KEPT) {
    const value = answer.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: answer.status, headers, body: Buffer.from(await answer.arrayBuffer()) };
}
