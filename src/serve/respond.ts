import { createReadStream } from "node:fs";
import * as fs from "node:fs/promises";
import type http from "node:http";
import { pipeline } from "node:stream/promises";
import { isCompressible, mimeType } from "./mime.ts";
import { encodePath, type Answer, type Headers } from "./resolve.ts";
import {
  API_HEADERS,
  CACHE,
  errorBody,
  JSON_TYPE,
  notFoundPageFor,
  type HostRoutes,
} from "./routes.ts";
import {
  cachedBytes,
  compressed,
  compressStream,
  pickEncoding,
  type Encoding,
} from "./compress.ts";
import { rangeOf, type RangeOutcome } from "./range.ts";
import type { ServedFile, ServedBuild } from "./served-build.ts";

/**
 * A resolved request answered on node:http: files from memory or streamed, compressed or not,
 * 304 on a matching validator, byte ranges, the domain's 404 page, dev's pages with its script.
 */

export interface DevHooks {
  /** Answers the request and returns true when it is one of dev's own URLs. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** The HTML page as dev serves it. */
  html(page: Buffer): Buffer;
}

/** Files larger than this are streamed (compressed or not) and never kept in memory. */
const STREAM_COMPRESSED_ABOVE = 1024 * 1024;

export async function answerWith(
  site: ServedBuild,
  host: HostRoutes,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  answer: Answer,
  dev?: DevHooks,
) {
  switch (answer.kind) {
    case "bad-request":
      return sendPlain(req, res, 400, "Bad request\n");
    case "too-long":
      return sendPlain(req, res, 414, "URI too long\n");
    case "body":
      return sendBody(req, res, answer.status, answer.headers, answer.body);
    case "redirect":
      return sendBody(
        req,
        res,
        301,
        { ...answer.headers, Location: answer.location, "Cache-Control": CACHE.short },
        "",
      );
    case "not-found":
      return sendNotFound(site, host, req, res, dev);
    case "file": {
      const file = await site.file(`${host.host}${answer.file}`);
      // The error is JSON whatever the file would have been (an export's type and name do not apply).
      if (file === null)
        return sendBody(
          req,
          res,
          404,
          { ...API_HEADERS, "Content-Type": JSON_TYPE },
          errorBody(answer.missing),
        );
      return sendFile(req, res, site, file, answer.headers, dev);
    }
    case "static":
      return sendStatic(site, host, req, res, answer.path, answer.cache, dev);
  }
}

async function sendStatic(
  site: ServedBuild,
  host: HostRoutes,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  urlPath: string,
  cache: string,
  dev?: DevHooks,
) {
  const rel = `${host.host}${urlPath}`;
  if (urlPath.endsWith("/")) {
    const index = await site.file(`${rel}index.html`);
    if (index === null) return sendNotFound(site, host, req, res, dev);
    return sendFile(
      req,
      res,
      site,
      index,
      { "Content-Type": mimeType(index.rel), "Cache-Control": cache },
      dev,
    );
  }
  const file = await site.file(rel);
  if (file !== null)
    return sendFile(
      req,
      res,
      site,
      file,
      { "Content-Type": mimeType(rel), "Cache-Control": cache },
      dev,
    );
  if (await site.isDirectory(rel)) {
    const query = (req.url ?? "").includes("?")
      ? (req.url ?? "").slice((req.url ?? "").indexOf("?"))
      : "";
    return sendBody(
      req,
      res,
      301,
      { Location: `${encodePath(urlPath)}/${query}`, "Cache-Control": CACHE.short },
      "",
    );
  }
  return sendNotFound(site, host, req, res, dev);
}

/** The domain's HTML 404 page when its catalogue has one, else a short text. */
async function sendNotFound(
  site: ServedBuild,
  host: HostRoutes,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  dev?: DevHooks,
) {
  const page =
    host.domain === null
      ? null
      : await site.file(
          `${host.host}${notFoundPageFor(host.domain, new URL(req.url ?? "/", "http://x").pathname)}`,
        );
  if (page === null) return sendPlain(req, res, 404, "Not found\n");
  const body = await fs.readFile(page.real);
  return sendBody(
    req,
    res,
    404,
    { "Content-Type": mimeType(page.rel), "Cache-Control": CACHE.short },
    dev === undefined ? body : dev.html(body),
  );
}

export function sendPlain(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  text: string,
) {
  sendBody(req, res, status, { "Content-Type": "text/plain; charset=utf-8" }, text);
}

function sendBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  headers: Headers,
  body: string | Buffer,
) {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  writeHead(res, status, { ...headers, "Content-Length": String(bytes.length) });
  res.end(req.method === "HEAD" ? undefined : bytes);
}

/** Headers set one by one, so the access log can read them back. */
function writeHead(res: http.ServerResponse, status: number, headers: Headers) {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(status);
}

async function sendFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  site: ServedBuild,
  file: ServedFile,
  headers: Headers,
  dev?: DevHooks,
) {
  const type = headers["Content-Type"] ?? mimeType(file.rel);
  // In dev, pages carry the reload script and are never cached: a reload must show the new build.
  if (dev !== undefined && type.startsWith("text/html"))
    return sendBody(
      req,
      res,
      200,
      { ...headers, "Cache-Control": "no-store" },
      dev.html(await fs.readFile(file.real)),
    );
  const compressible = isCompressible(type) && file.size >= 256;
  const encoding: Encoding | null = compressible
    ? pickEncoding(req.headers["accept-encoding"])
    : null;
  // A compressed representation has other bytes, so its validator is weak (as nginx does).
  const etag = encoding === null ? file.etag : `W/${file.etag}`;
  const out: Headers = { ...headers, ETag: etag, "Accept-Ranges": "bytes" };
  if (compressible) out.Vary = out.Vary ? `${out.Vary}, Accept-Encoding` : "Accept-Encoding";
  if (matches(req.headers["if-none-match"], file.etag)) {
    writeHead(res, 304, out);
    res.end();
    return;
  }
  const range = rangeOf(
    req.headers.range,
    req.headers["if-range"] as string | undefined,
    file.size,
    file.etag,
  );
  if (range.kind !== "whole")
    return sendRange(req, res, site, file, { ...out, ETag: file.etag }, range);
  if (encoding !== null) out["Content-Encoding"] = encoding;

  if (file.size <= STREAM_COMPRESSED_ABOVE) {
    // Small files (every API page) are answered from memory, compressed or not.
    const body =
      encoding === null
        ? await cachedBytes(site.compressCache, file)
        : await compressed(site.compressCache, file, encoding);
    return sendBody(req, res, 200, out, body);
  }
  if (encoding === null) out["Content-Length"] = String(file.size);
  writeHead(res, 200, out);
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const stream = createReadStream(file.real);
  const sent =
    encoding === null ? pipeline(stream, res) : pipeline(stream, compressStream(encoding), res);
  await sent.catch(() => {
    // The client went away mid-transfer: nothing to answer any more.
    res.destroy();
  });
}

/** A part of the file's uncompressed bytes (206), or 416 when the range holds none of them. */
async function sendRange(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  site: ServedBuild,
  file: ServedFile,
  out: Headers,
  range: Exclude<RangeOutcome, { kind: "whole" }>,
) {
  if (range.kind === "unsatisfiable")
    return sendBody(req, res, 416, { ...out, "Content-Range": range.contentRange }, "");
  const headers = { ...out, "Content-Range": range.contentRange };
  if (file.size <= STREAM_COMPRESSED_ABOVE) {
    const bytes = await cachedBytes(site.compressCache, file);
    return sendBody(req, res, 206, headers, bytes.subarray(range.start, range.end + 1));
  }
  writeHead(res, 206, { ...headers, "Content-Length": String(range.end - range.start + 1) });
  if (req.method === "HEAD") return void res.end();
  await pipeline(createReadStream(file.real, { start: range.start, end: range.end }), res).catch(
    () => res.destroy(),
  );
}

/** If-None-Match with weak comparison (RFC 9110 13.1.2): a list of tags, or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}
