import type { ErrorName } from "../api/layout.ts";
import {
  API_HEADERS,
  CACHE,
  detailFile,
  errorBody,
  HIDDEN_PREFIXES,
  JSON_TYPE,
  listTarget,
  MAX_TARGET,
  methodNotAllowedBody,
  crossOriginHeaders,
  OPTIONS_HEADERS,
  READ_METHODS,
  REFUSED_HEADERS,
  regex,
  slashRedirects,
  type HostRoutes,
} from "./routes.ts";

/**
 * The routing table applied to one request, without any I/O: what `catalogue serve` answers.
 * nginx.ts and caddy.ts express the same decisions in their servers' languages.
 */

export type Headers = Record<string, string>;

export type Answer =
  /** A small body built here (errors, OPTIONS, 405). */
  | { kind: "body"; status: number; headers: Headers; body: string }
  /** 301 to `location`; `headers` are the API's on an API path. */
  | { kind: "redirect"; location: string; headers?: Headers }
  /** An API file of the host's folder; `missing` is the error answered when it does not exist. */
  | { kind: "file"; file: string; headers: Headers; missing: ErrorName }
  /** A file of the host's folder by URL path: index.html, directory redirect, 404 page. */
  | { kind: "static"; path: string; cache: string }
  /** Not served: the host's 404 page (or a plain 404). */
  | { kind: "not-found" }
  | { kind: "bad-request" }
  | { kind: "too-long" };

export interface Request {
  method: string;
  /** The request target as sent: path and query, not decoded. */
  url: string;
}

const apiError = (name: ErrorName): Answer => ({
  kind: "body",
  status: 404,
  headers: { ...API_HEADERS, "Content-Type": JSON_TYPE },
  body: errorBody(name),
});

export function resolve(host: HostRoutes, request: Request): Answer {
  if (!request.url.startsWith("/")) return { kind: "bad-request" };
  if (request.url.length > MAX_TARGET) return { kind: "too-long" };
  const mark = request.url.indexOf("?");
  const rawPath = mark === -1 ? request.url : request.url.slice(0, mark);
  const rawQuery = mark === -1 ? "" : request.url.slice(mark + 1);
  const path = normalizePath(rawPath);
  if (path === null) return { kind: "bad-request" };

  if (request.method === "OPTIONS")
    return { kind: "body", status: 200, headers: { ...OPTIONS_HEADERS }, body: "" };
  if (!(READ_METHODS as readonly string[]).includes(request.method)) {
    return {
      kind: "body",
      status: 405,
      headers: { ...REFUSED_HEADERS },
      body: methodNotAllowedBody(request.method),
    };
  }
  if (HIDDEN_PREFIXES.some((prefix) => path.startsWith(prefix) || `${path}/` === prefix))
    return { kind: "not-found" };

  const routes = host.domain;
  if (routes !== null && path.startsWith(routes.api.slice(0, -1))) {
    const query = rawQuery === "" ? "" : `?${rawQuery}`;
    if (slashRedirects(routes).includes(path) || regex(routes.detailNoSlash).test(path)) {
      return {
        kind: "redirect",
        location: `${encodePath(path)}/${query}`,
        headers: { ...API_HEADERS },
      };
    }
    if (path === routes.api) {
      const target = listTarget(rawQuery);
      if ("error" in target) return apiError(target.error);
      return {
        kind: "file",
        file: target.file,
        headers: { ...API_HEADERS, "Content-Type": JSON_TYPE },
        missing: "invalid-page",
      };
    }
    const detail = regex(routes.detail).exec(path);
    if (detail !== null) {
      return {
        kind: "file",
        file: detailFile(detail[1]!),
        headers: { ...API_HEADERS, "Content-Type": JSON_TYPE },
        missing: "not-found",
      };
    }
    const exported = routes.exports.find((e) => e.path === path);
    if (exported !== undefined) {
      const headers = {
        ...API_HEADERS,
        "Content-Type": exported.type,
        "Content-Disposition": exported.contentDisposition,
      };
      return { kind: "file", file: exported.file, headers, missing: "not-found" };
    }
    if (path.startsWith(routes.api)) return apiError("not-found");
  }
  const shared = routes?.crossOrigin.find((file) => file.path === path);
  if (shared !== undefined)
    return {
      kind: "file",
      file: path,
      headers: crossOriginHeaders(shared.type),
      missing: "not-found",
    };

  const media = host.media.some((prefix) => path.startsWith(prefix));
  // A host that only serves media answers nothing else.
  if (host.domain === null && !media) return { kind: "not-found" };
  return { kind: "static", path, cache: media ? CACHE.immutable : CACHE.short };
}

/**
 * The decoded path with `.`, `..` and repeated slashes resolved (as nginx does before matching
 * locations), or null when it cannot be a path of the build: bad percent-encoding, a NUL byte,
 * or `..` climbing above the root.
 */
export function normalizePath(rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (!decoded.startsWith("/") || decoded.includes("\0")) return null;
  const segments: string[] = [];
  const parts = decoded.split("/");
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(part);
  }
  const last = parts.at(-1);
  const trailing = segments.length > 0 && (last === "" || last === "." || last === "..");
  return `/${segments.join("/")}${trailing ? "/" : ""}`;
}

/** A decoded path written back as a URL path (for Location headers). */
export const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");
