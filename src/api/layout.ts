import type { Ordering } from "../content/schema.ts";
import { ID_DIGITS } from "../content/row-limits.ts";
import { API_FILES_FOLDER, API_FOLDER } from "../util/product-paths.ts";

/**
 * Where each API response lives in the output, relative to the output folder. A web server maps
 * a request onto these paths from the host, the path and three whitelisted query values alone,
 * without running code (see src/serve/routes.ts). README.md (Output layout) documents this layout.
 *
 *   <domain>/_api/list/<format>/<ordering>/<page>.json   listing pages, and `last.json`
 *   <domain>/_api/detail/<id>.json                        retrieve
 *   <domain>/_api/error/<name>.json                       error bodies
 *   <domain>/_api/export/<kind>.xlsx                      the three spreadsheets
 *   <domain>/_api/export/<kind>.mrc, <kind>.xml           their MARC 21 records (ISO 2709, MARCXML)
 *
 * `_api` is never addressable by URL: every server answers 404 under it. The shapes are defined
 * relative to the domain's folder (`/_api/…`, as the servers' rewrites name them: serve/routes.ts,
 * the edge rules); the paths with the domain are made from them.
 */

/** The folder of the API's files in a domain's folder. */
export const API_DIR = API_FILES_FOLDER;
/** The API's version folder below the site root. */
export const API_ROOT = `/${API_FOLDER}/v1/`;
/** The list's URL path below the site root; every other API URL of the works is below it. */
export const API_PATH = `${API_ROOT}videos/audiovisuals/`;
/** Where src/api/openapi.ts writes the OpenAPI description, below the site root. */
export const OPENAPI_FILE = `${API_ROOT}openapi.json`;
/** A retrieve URL's id (a regular expression's text): a work's id as the content rows allow it. */
export const ID_PATTERN = ID_DIGITS;
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

/**
 * The files in the domain's folder. They take text: the servers' rewrites put their own
 * placeholders in (`$catalogue_id`, `{re.detail.1}`, `:id`); the paths below, with the domain,
 * take the typed values.
 */
export const listFile = (format: string, ordering: string, page: string) =>
  `/${API_DIR}/list/${format}/${ordering}/${page}.json`;
export const detailFile = (id: string) => `/${API_DIR}/detail/${id}.json`;
export const errorFile = (name: ErrorName) => `/${API_DIR}/error/${name}.json`;
export const exportFile = (kind: string) => `/${API_DIR}/export/${kind}.xlsx`;

/**
 * The MARC 21 files of each export set (the same works as its spreadsheet), beside it: the URL
 * below the spreadsheet's (`export_excel/marc/`), the file's extension and its content type.
 */
export const MARC_FORMATS = {
  marc: { extension: "mrc", type: "application/marc" },
  marcxml: { extension: "xml", type: "application/marcxml+xml" },
} as const;
export type MarcFormat = keyof typeof MARC_FORMATS;
export const MARC_FORMAT_NAMES = Object.keys(MARC_FORMATS) as MarcFormat[];
export const marcFile = (kind: string, format: MarcFormat) =>
  `/${API_DIR}/export/${kind}.${MARC_FORMATS[format].extension}`;
/** A MARC file's download name: the spreadsheet's (build.json's `exports`) with the format's extension. */
export const marcDownloadName = (sheetName: string, format: MarcFormat) =>
  `${sheetName.replace(/\.xlsx$/, "")}.${MARC_FORMATS[format].extension}`;

export const listPagePath = (
  domain: string,
  format: FormatDir,
  ordering: OrderingDir,
  page: number | "last",
) => `${domain}${listFile(format, ordering, String(page))}`;

export const detailPath = (domain: string, id: number) => `${domain}${detailFile(String(id))}`;

export const errorPath = (domain: string, name: ErrorName) => `${domain}${errorFile(name)}`;

export const exportPath = (domain: string, kind: ExportKind) => `${domain}${exportFile(kind)}`;

export const marcPath = (domain: string, kind: ExportKind, format: MarcFormat) =>
  `${domain}${marcFile(kind, format)}`;

/** The folder of a URL's host and path in the output: media of `https://m.example/covers` is `m.example/covers`. */
export function urlFolder(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname}`.replace(/\/+$/, "");
}

/** The path part of a URL without its trailing slash ("" for the root). */
export const urlPath = (url: string) => new URL(url).pathname.replace(/\/+$/, "");
