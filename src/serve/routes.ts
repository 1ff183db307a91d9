import {
  API_PATH,
  ERROR_BODIES,
  EXPORT_KINDS,
  ID_PATTERN,
  MARC_FORMAT_NAMES,
  MARC_FORMATS,
  OPENAPI_FILE,
  exportFile,
  listFile,
  marcDownloadName,
  marcFile,
  type ErrorName,
  type ExportKind,
} from "../api/layout.ts";
import { HIDDEN_FOLDERS } from "../util/product-paths.ts";
import type { BuildInfo, DomainInfo } from "../output/build-info.ts";
import {
  ASSETS_DIR,
  FEED_FILE,
  JSON_FEED_FILE,
  ROBOTS_FILE,
  SHELF_SCRIPT,
  sitemapPartFile,
  SITEMAP_FILE,
} from "../web/urls.ts";
import { domainHeaders, mediaHostHeaders, NOSNIFF } from "./security-headers.ts";
import { mimeType } from "./mime.ts";
import { assertServable } from "../util/server-values.ts";

/**
 * docs/interface.md#routing as data: the one description of how a request maps onto the files of a
 * build. `catalogue serve` (server.ts) interprets it; the nginx and Caddy configurations
 * (nginx.ts, caddy.ts) are translated from it; the conformance suite checks all three agree.
 * Nothing here is specific to one server: only paths, patterns, whitelists, statuses, headers.
 */

/** Methods that read; every other method is refused with 405 (the static catalogue is read-only). */
export const ALLOW = "GET, HEAD, OPTIONS";
export const READ_METHODS = ["GET", "HEAD"] as const;

export const JSON_TYPE = "application/json";
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export const CACHE = {
  /** API pages, HTML and everything else: may change with the next build. */
  short: "public, max-age=300",
  /** Processed images: their file names are content hashes, so a name never changes meaning. */
  immutable: "public, max-age=31536000, immutable",
} as const;

/** The API is public and read-only: any site's pages may read it (no credentials are involved). */
export const CORS = { "Access-Control-Allow-Origin": "*" } as const;

/** Headers of every response on an API path (200s, 404s, 405s and redirects alike). */
export const API_HEADERS = {
  Vary: "Accept",
  Allow: ALLOW,
  "Cache-Control": CACHE.short,
  ...CORS,
} as const;

/**
 * The OPTIONS answer, on any path: the interface's `Allow`, and what a CORS preflight needs to
 * let a GET through (any request header, since no credentials are ever allowed; cached a day).
 */
export const OPTIONS_HEADERS = {
  Allow: ALLOW,
  ...CORS,
  "Access-Control-Allow-Methods": ALLOW,
  "Access-Control-Allow-Headers": "*",
  "Access-Control-Max-Age": "86400",
} as const;

/** A refused method's answer (405) on any path: an API error, readable across origins. */
export const REFUSED_HEADERS = { Allow: ALLOW, ...CORS, "Content-Type": JSON_TYPE } as const;

/** Headers of a file other sites read (the OpenAPI description, the JSON feeds, the shelf's module). */
export const crossOriginHeaders = (type: string) => ({
  ...CORS,
  "Content-Type": type,
  "Cache-Control": CACHE.short,
});

/** Error bodies, the same bytes as the build's `_api/error/<name>.json` (both come from ERROR_BODIES). */
export const errorBody = (name: ErrorName) => JSON.stringify(ERROR_BODIES[name]);

/**
 * The 405 body of any refused method: for POST, PUT, PATCH and DELETE it is byte for byte the
 * build's `_api/error/method-<M>.json`. The method is safe to interpolate: every HTTP parser in
 * play accepts only token characters there (no quote, backslash or control character).
 */
export const methodNotAllowedBody = (method: string) =>
  `{"detail":"Method \\"${method}\\" not allowed."}`;

/** One query parameter: which raw values are accepted, and what the others mean. */
export interface QueryRule {
  name: "format" | "ordering" | "page";
  /** The folder used when the parameter is absent. */
  absent: string;
  /** Raw value → folder. Values are compared as sent, without percent-decoding. */
  values: Record<string, string>;
  /** A regular expression (anchored, same syntax in JS, PCRE and RE2) whose matches are their own folder. */
  pattern?: string;
  /** Any other value (including an empty one): a folder, or an error answered with 404. */
  otherwise: { folder: string } | { error: ErrorName };
}

/**
 * The three query parameters, in the order their errors take precedence (an unknown format wins
 * over an invalid page, as in DRF where format negotiation comes before pagination).
 */
export const QUERY_RULES: readonly QueryRule[] = [
  {
    name: "format",
    absent: "plain",
    values: { api: "api", json: "json" },
    otherwise: { error: "not-found" },
  },
  {
    name: "ordering",
    absent: "default",
    values: { name: "name", "-name": "-name", year: "year", "-year": "-year" },
    // DRF ignores an unknown ordering field: the domain's default ordering.
    otherwise: { folder: "default" },
  },
  {
    name: "page",
    absent: "1",
    values: { last: "last" },
    pattern: "^[1-9][0-9]{0,8}$",
    otherwise: { error: "invalid-page" },
  },
];

/**
 * The regular expression that finds the FIRST occurrence of a parameter in a raw query string
 * (nginx `$args`, Caddy `{query}`, Node's raw URL): group 1 is `=value`, or empty for a bare
 * `name`; no match means absent. Anchored at the start so servers that concatenate every match
 * (Caddy's `map`) still see one. The name is compared exactly (nginx's `$arg_x` would ignore case).
 */
export const paramPattern = (name: string) => `^(?:[^&]*&)*?${name}(=[^&]*)?(?:&|$)`;

const compiled = new Map<string, RegExp>();
/** One RegExp object per pattern source (the routing table's patterns are few and fixed). */
export function regex(source: string): RegExp {
  let re = compiled.get(source);
  if (re === undefined) compiled.set(source, (re = new RegExp(source)));
  return re;
}

/** Raw value of the first occurrence of `name` ("" for a bare `name`), or undefined when absent. */
export function queryValue(rawQuery: string, name: string): string | undefined {
  const match = regex(paramPattern(name)).exec(rawQuery);
  if (match === null) return undefined;
  return (match[1] ?? "").slice(1);
}

export type QueryOutcome = { folder: string } | { error: ErrorName };

export function classify(rule: QueryRule, value: string | undefined): QueryOutcome {
  if (value === undefined) return { folder: rule.absent };
  if (Object.hasOwn(rule.values, value)) return { folder: rule.values[value]! };
  if (rule.pattern !== undefined && regex(rule.pattern).test(value)) return { folder: value };
  return rule.otherwise;
}

/** The listing file of a request's query, or the error it deserves. */
export function listTarget(rawQuery: string): { file: string } | { error: ErrorName } {
  const folders: Record<string, string> = {};
  for (const rule of QUERY_RULES) {
    const outcome = classify(rule, queryValue(rawQuery, rule.name));
    if ("error" in outcome) return outcome;
    folders[rule.name] = outcome.folder;
  }
  return { file: listFile(folders.format!, folders.ordering!, folders.page!) };
}

// The files behind the API's URLs, relative to the domain's folder, and the retrieve id: the
// servers' configurations import them from here with the rest of the table.
export { detailFile, exportFile, ID_PATTERN, listFile, marcFile } from "../api/layout.ts";

/**
 * Longest request target served (path and query): longer ones get 414. nginx's default request
 * line buffer (8 KB) sets the figure; the other servers are held to it so all three agree.
 */
export const MAX_TARGET = 8000;

/** URL prefixes (at a host's root) that are never served: the raw API files and the build's metadata. */
export const HIDDEN_PREFIXES: readonly string[] = HIDDEN_FOLDERS.map((folder) => `/${folder}/`);

/** A download name safe inside a quoted header value and a server configuration string. */
export const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, "_");

export interface ExportRoute {
  kind: ExportKind;
  /** The spreadsheet (`xlsx`), or its records as MARC 21 (`marc`: ISO 2709; `marcxml`). */
  format: "xlsx" | keyof typeof MARC_FORMATS;
  /** The URL path (with its trailing slash). */
  path: string;
  file: string;
  /** The answer's Content-Type. */
  type: string;
  contentDisposition: string;
}

/**
 * The downloads of a domain: each export set's spreadsheet (`…/export_excel/`), then its MARC
 * files below it (`…/export_excel/marc/`, `…/export_excel/marcxml/`), under the spreadsheet's
 * download name with their own extension.
 */
function exportRoutes(info: DomainInfo, api: string): ExportRoute[] {
  return EXPORT_KINDS.flatMap((kind): ExportRoute[] => {
    const name = info.exports[kind] ?? `${kind}.xlsx`;
    const disposition = (file: string) => `attachment; filename="${safeFileName(file)}"`;
    return [
      {
        kind,
        format: "xlsx",
        path: `${api}${kind}/`,
        file: exportFile(kind),
        type: XLSX_TYPE,
        contentDisposition: disposition(name),
      },
      ...MARC_FORMAT_NAMES.map((format) => ({
        kind,
        format,
        path: `${api}${kind}/${format}/`,
        file: marcFile(kind, format),
        type: MARC_FORMATS[format].type,
        contentDisposition: disposition(marcDownloadName(name, format)),
      })),
    ];
  });
}

/** The API of one domain: its URL paths and the files behind them. */
export interface DomainRoutes {
  info: DomainInfo;
  /** `<base>/api/v1/videos/audiovisuals/`: the list, and the prefix of every other API route. */
  api: string;
  /** Anchored pattern of retrieve paths; group 1 is the id. */
  detail: string;
  /** Anchored pattern of a retrieve path without its trailing slash; group 1 is the id. */
  detailNoSlash: string;
  exports: ExportRoute[];
  /**
   * Files other sites' pages and tools read, served with CORS and their type (crossOriginHeaders)
   * by every server: the OpenAPI description, each language version's JSON feed and the
   * `<catalogue-shelf>` module (a cross-origin module script without CORS is refused).
   */
  crossOrigin: { path: string; type: string }[];
  /** The 404 page of the domain's HTML catalogue (served when the file exists). */
  notFoundPage: string;
  /**
   * The 404 pages of the site's other language versions: a missing path under a version's
   * folder (`{base}/es/…`) gets the 404 page in its language.
   */
  languageNotFound: { prefix: string; page: string }[];
  /**
   * The files crawlers and feed readers ask for by name (src/site/discovery.ts): `robots.txt` at
   * the host's root, the sitemap (and its parts, `*` standing for the number) and the Atom feed
   * under the base path. Servers find them as any static file, typed by mime.ts; rule sets that
   * cannot type a file by its extension (Netlify's _headers) name them with these types.
   */
  discovery: { path: string; type: string }[];
}

export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

export function domainRoutes(info: DomainInfo): DomainRoutes {
  // validate refuses what a server cannot match literally (util/server-values.ts): asserted here.
  assertServable("host", info.domain, "domain");
  assertServable("path", info.base_path, `${info.domain}'s base path`);
  for (const folder of info.languages ?? [])
    assertServable("path", `/${folder}`, `${info.domain}'s language folder`);
  const api = `${info.base_path}${API_PATH}`;
  return {
    info,
    api,
    detail: `^${escapeRegex(api)}(${ID_PATTERN})/$`,
    detailNoSlash: `^${escapeRegex(api)}(${ID_PATTERN})$`,
    exports: exportRoutes(info, api),
    crossOrigin: [
      { path: `${info.base_path}${OPENAPI_FILE}`, type: JSON_TYPE },
      ...["", ...(info.languages ?? []).map((folder) => `${folder}/`)].map((version) => ({
        path: `${info.base_path}/${version}${JSON_FEED_FILE}`,
        type: mimeType(JSON_FEED_FILE),
      })),
      { path: `${info.base_path}/${ASSETS_DIR}${SHELF_SCRIPT}`, type: mimeType(SHELF_SCRIPT) },
    ],
    notFoundPage: `${info.base_path}/404.html`,
    languageNotFound: (info.languages ?? []).map((folder) => ({
      prefix: `${info.base_path}/${folder}/`,
      page: `${info.base_path}/${folder}/404.html`,
    })),
    discovery: [
      { path: `/${ROBOTS_FILE}`, type: mimeType(ROBOTS_FILE) },
      { path: `${info.base_path}/${SITEMAP_FILE}`, type: mimeType(SITEMAP_FILE) },
      // A splat only ends a path in a rule set: `sitemap-*` for sitemap-1.xml, sitemap-2.xml, …
      {
        path: `${info.base_path}/${sitemapPartFile(1).replace(/1\.xml$/, "*")}`,
        type: mimeType(sitemapPartFile(1)),
      },
      { path: `${info.base_path}/${FEED_FILE}`, type: mimeType(FEED_FILE) },
    ],
  };
}

/** The 404 page for a missing URL path: its language version's, or the domain's. */
export function notFoundPageFor(routes: DomainRoutes, urlPath: string): string {
  return (
    routes.languageNotFound.find(
      ({ prefix }) => urlPath.startsWith(prefix) || urlPath === prefix.slice(0, -1),
    )?.page ?? routes.notFoundPage
  );
}

/** The exact API paths that answer 301 to the same path with a slash (the retrieve pattern aside). */
export const slashRedirects = (routes: DomainRoutes) =>
  [routes.api, ...routes.exports.map((e) => e.path)].map((p) => p.slice(0, -1));

/** Everything a server answers for one host name. */
export interface HostRoutes {
  host: string;
  /** The domain whose site and API this host serves; null for a host that only serves media. */
  domain: DomainRoutes | null;
  /** URL path prefixes (ending in `/`) holding processed images: long-lived cache. */
  media: string[];
  /** Headers of every answer of this host (security-headers.ts): nosniff, and a domain's policies. */
  headers: Record<string, string>;
}

/**
 * Every host of a build: the domains in domains.csv order (the first answers unknown hosts),
 * then the hosts that only serve media (a media_url on another host).
 */
export function hostTable(info: BuildInfo): HostRoutes[] {
  const hosts = new Map<string, HostRoutes>();
  const mediaUrls = new Map<string, string[]>();
  for (const domain of info.domains) {
    hosts.set(domain.domain, {
      host: domain.domain,
      domain: domainRoutes(domain),
      media: [],
      headers: domainHeaders(domain),
    });
  }
  for (const domain of info.domains) {
    const slash = domain.media_folder.indexOf("/");
    const host = slash === -1 ? domain.media_folder : domain.media_folder.slice(0, slash);
    const prefix = slash === -1 ? "/" : `${domain.media_folder.slice(slash)}/`;
    assertServable("host", host, `${domain.domain}'s media host`);
    assertServable("path", prefix.slice(0, -1), `${domain.domain}'s media path`);
    let entry = hosts.get(host);
    if (entry === undefined)
      hosts.set(host, (entry = { host, domain: null, media: [], headers: { ...NOSNIFF } }));
    if (!entry.media.includes(prefix)) entry.media.push(prefix);
    mediaUrls.set(host, [...(mediaUrls.get(host) ?? []), domain.media_url]);
  }
  for (const entry of hosts.values())
    if (entry.domain === null) entry.headers = mediaHostHeaders(mediaUrls.get(entry.host)!);
  return [...hosts.values()];
}

/** The host a `Host` header names: without port, trailing dot or case; unknown → the first domain. */
export function selectHost(table: HostRoutes[], header: string | undefined): HostRoutes {
  const name = (header ?? "").replace(/:\d*$/, "").replace(/\.$/, "").toLowerCase();
  return table.find((h) => h.host === name) ?? table[0]!;
}
