import type { BuildInfo } from "../output/build-info.ts";
import { mimeType } from "../serve/mime.ts";
import { rangeOf } from "../serve/range.ts";
import { resolve, encodePath, type Answer, type Headers } from "../serve/resolve.ts";
import {
  CACHE,
  errorBody,
  hostTable,
  notFoundPageFor,
  selectHost,
  type HostRoutes,
} from "../serve/routes.ts";
import { BUILD_INFO_PATH } from "../output/catalogue-paths.ts";

/**
 * The edge function (Cloudflare Workers style: a module whose default export has
 * `fetch(request, env)`, standard Request and Response only). It applies the same routing table
 * as `catalogue serve` (src/serve/routes.ts through resolve.ts) and reads the published files
 * through `env.ASSETS` (Workers static assets, or any binding that answers `GET /<path>` with the
 * file at that path of the published build). Query strings are mapped onto files here, which no
 * static rule set can do exactly.
 */

export interface Assets {
  fetch(request: Request): Promise<Response>;
}

export interface Env {
  ASSETS: Assets;
}

/** How long one isolate trusts its copy of build.json before reading it again (a new publish). */
const INFO_TTL_MS = 60_000;
const tables = new WeakMap<Assets, { at: number; table: HostRoutes[] }>();

async function routingTable(env: Env): Promise<HostRoutes[]> {
  const cached = tables.get(env.ASSETS);
  if (cached !== undefined && Date.now() - cached.at < INFO_TTL_MS) return cached.table;
  const response = await asset(env, BUILD_INFO_PATH);
  if (response === null) throw new Error("the published build has no _catalogue/build.json");
  const table = hostTable((await response.json()) as BuildInfo);
  tables.set(env.ASSETS, { at: Date.now(), table });
  return table;
}

/** A file of the published build, or null when there is none. */
async function asset(env: Env, rel: string): Promise<Response | null> {
  const response = await env.ASSETS.fetch(new Request(`https://assets.invalid/${encodePath(rel)}`));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`assets answered ${response.status} for ${rel}`);
  return response;
}

export async function handle(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  const host = selectHost(await routingTable(env), request.headers.get("host") ?? url.host);
  // resolve() wants the target as sent; URL keeps the path's and query's percent-encoding.
  const answer = resolve(host, { method: request.method, url: `${url.pathname}${url.search}` });
  const response = await answerWith(env, host, request, answer);
  // The host's own headers (nosniff, its policies) go on every answer.
  for (const [name, value] of Object.entries(host.headers)) response.headers.set(name, value);
  return response;
}

async function answerWith(
  env: Env,
  host: HostRoutes,
  request: Request,
  answer: Answer,
): Promise<Response> {
  switch (answer.kind) {
    case "bad-request":
      return plain(request, 400, "Bad request\n");
    case "too-long":
      return plain(request, 414, "URI too long\n");
    case "body":
      return reply(request, answer.status, answer.headers, answer.body);
    case "redirect":
      return reply(
        request,
        301,
        { ...answer.headers, Location: answer.location, "Cache-Control": CACHE.short },
        "",
      );
    case "not-found":
      return notFound(env, host, request);
    case "file": {
      const file = await asset(env, `${host.host}${answer.file}`);
      if (file === null) return reply(request, 404, answer.headers, errorBody(answer.missing));
      return fromAsset(request, answer.headers, file);
    }
    case "static": {
      const rel = `${host.host}${answer.path}`;
      const file = await asset(env, answer.path.endsWith("/") ? `${rel}index.html` : rel);
      if (file !== null) {
        const name = answer.path.endsWith("/") ? "index.html" : answer.path;
        return fromAsset(
          request,
          { "Content-Type": mimeType(name), "Cache-Control": answer.cache },
          file,
        );
      }
      // A folder asked without its slash: where its index page is, redirect (as the servers do).
      if (!answer.path.endsWith("/") && (await asset(env, `${rel}/index.html`)) !== null) {
        const search = new URL(request.url).search;
        return reply(
          request,
          301,
          { Location: `${encodePath(answer.path)}/${search}`, "Cache-Control": CACHE.short },
          "",
        );
      }
      return notFound(env, host, request);
    }
  }
}

async function notFound(env: Env, host: HostRoutes, request: Request): Promise<Response> {
  const page =
    host.domain === null
      ? null
      : await asset(
          env,
          `${host.host}${notFoundPageFor(host.domain, new URL(request.url).pathname)}`,
        );
  if (page === null) return plain(request, 404, "Not found\n");
  return reply(
    request,
    404,
    { "Content-Type": "text/html; charset=utf-8", "Cache-Control": CACHE.short },
    page.body,
  );
}

/** A file's answer: its validator and length come from the asset store; If-None-Match is honoured. */
async function fromAsset(request: Request, headers: Headers, file: Response): Promise<Response> {
  const out: Headers = { ...headers };
  const etag = file.headers.get("etag");
  const length = file.headers.get("content-length");
  if (etag !== null) {
    out.ETag = etag;
    const wanted = request.headers.get("if-none-match");
    if (
      wanted !== null &&
      wanted
        .split(/\s*,\s*/)
        .some((tag) => tag === "*" || tag.replace(/^W\//, "") === etag.replace(/^W\//, ""))
    ) {
      return new Response(null, { status: 304, headers: out });
    }
  }
  out["Accept-Ranges"] = "bytes";
  const wanted = request.headers.get("range");
  if (wanted !== null) {
    // A part of the stored bytes (files are small enough to read whole: at most 25 MiB).
    const bytes = new Uint8Array(await file.arrayBuffer());
    const range = rangeOf(wanted, request.headers.get("if-range"), bytes.byteLength, etag);
    if (range.kind === "unsatisfiable")
      return reply(request, 416, { ...out, "Content-Range": range.contentRange }, "");
    if (range.kind === "part") {
      const part = bytes.slice(range.start, range.end + 1);
      return reply(
        request,
        206,
        { ...out, "Content-Range": range.contentRange, "Content-Length": String(part.byteLength) },
        request.method === "HEAD" ? null : part,
      );
    }
    return reply(
      request,
      200,
      { ...out, "Content-Length": String(bytes.byteLength) },
      request.method === "HEAD" ? null : bytes,
    );
  }
  if (length !== null) out["Content-Length"] = length;
  // workerd's ASSETS binding sends no Content-Length header (its body knows its length, and the
  // runtime sets the header of a GET from it): a HEAD counts the bytes to announce the same length.
  else if (request.method === "HEAD")
    out["Content-Length"] = String((await file.arrayBuffer()).byteLength);
  return reply(request, 200, out, file.body);
}

const plain = (request: Request, status: number, text: string) =>
  reply(request, status, { "Content-Type": "text/plain; charset=utf-8" }, text);

function reply(
  request: Request,
  status: number,
  headers: Headers,
  body: ConstructorParameters<typeof Response>[0],
): Response {
  // HEAD answers the length GET would send.
  const out =
    typeof body === "string"
      ? { ...headers, "Content-Length": String(new TextEncoder().encode(body).length) }
      : headers;
  return new Response(request.method === "HEAD" ? null : body, { status, headers: out });
}

export default {
  fetch: (request: Request, env: Env) => handle(request, env),
};
