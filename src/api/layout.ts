import type { Ordering } from "../content/schema.ts";

/**
 * Where each API response lives in the output, relative to the output folder. A web server maps
 * a request onto these paths from the host, the path and three whitelisted query values alone,
 * without running code (see src/serve/routes.ts). README.md (Output layout) documents this layout.
 *
 *   <domain>/_api/list/<format>/<ordering>/<page>.json   listing pages, and `last.json`
 *   <domain>/_api/detail/<id>.json                        retrieve
 *   <domain>/_api/error/<name>.json                       error bodies
 *   <domain>/_api/export/<kind>.xlsx                      the three spreadsheets
 *
 * `_api` is never addressable by URL: every server answers 404 under it.
 */

export const API_PATH = "/api/v1/videos/audiovisuals/";
export const PAGE_SIZE = 20;
/** The pages of a listing of `count` works: at least one, empty when there is no work. */
export const pageCount = (count: number) => Math.max(1, Math.ceil(count / PAGE_SIZE));

/** Folder of each `format` query value; `plain` is the request without `format`. */
export const FORMAT_DIRS = { plain: null, api: "api", json: "json" } as const;
export type FormatDir = keyof typeof FORMAT_DIRS;

/** Folder of each `ordering` query value; `default` is the request without (or with an unknown) ordering. */
export const ORDERING_DIRS = ["default", "name", "-name", "year", "-year"] as const;
export type OrderingDir = "default" | Ordering;

export const ERROR_BODIES = {
  "invalid-page": { detail: "Invalid page." },
  "not-found": { detail: "Not found." },
  "method-POST": { detail: 'Method "POST" not allowed.' },
  "method-PUT": { detail: 'Method "PUT" not allowed.' },
  "method-PATCH": { detail: 'Method "PATCH" not allowed.' },
  "method-DELETE": { detail: 'Method "DELETE" not allowed.' },
} as const;
export type ErrorName = keyof typeof ERROR_BODIES;

export const EXPORT_KINDS = ["export_excel", "export_up_movies", "export_down_movies"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const listPagePath = (
  domain: string,
  format: FormatDir,
  ordering: OrderingDir,
  page: number | "last",
) => `${domain}/_api/list/${format}/${ordering}/${page}.json`;

export const detailPath = (domain: string, id: number) => `${domain}/_api/detail/${id}.json`;

export const errorPath = (domain: string, name: ErrorName) => `${domain}/_api/error/${name}.json`;

export const exportPath = (domain: string, kind: ExportKind) =>
  `${domain}/_api/export/${kind}.xlsx`;

/** The folder of a URL's host and path in the output: media of `https://m.example/covers` is `m.example/covers`. */
export function urlFolder(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname}`.replace(/\/+$/, "");
}

/** The path part of a URL without its trailing slash ("" for the root). */
export const urlPath = (url: string) => new URL(url).pathname.replace(/\/+$/, "");
