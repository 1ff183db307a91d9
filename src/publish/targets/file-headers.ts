import { MARC_FORMAT_NAMES, MARC_FORMATS, marcDownloadName } from "../../api/layout.ts";
import type { BuildInfo } from "../../output/build-info.ts";
import { mimeType } from "../../serve/mime.ts";
import { CACHE, safeFileName } from "../../serve/routes.ts";

/**
 * The HTTP headers of every published file, by path: the one place that decides `Content-Type`
 * and `Cache-Control` for the S3 objects, the published manifest and the edge rules.
 */

export interface FileHeaders {
  contentType: string;
  cacheControl: string;
  /** Only the exports (spreadsheets, MARC files): they download under their dated name (docs/interface.md#exports). */
  contentDisposition?: string;
}

/** Content-hashed names: a changed image gets a new name, so a copy never goes stale. */
const CACHE_IMMUTABLE = CACHE.immutable;
/** Pages, HTML and exports change with every rebuild under the same name. */
const CACHE_SHORT = CACHE.short;

/**
 * `Content-Type` by extension: the serving module's table, so S3 and `catalogue serve` agree;
 * anything unknown is application/octet-stream.
 */
const contentType = (rel: string) => mimeType(rel);

/** Whether `rel` lies in a domain's media folder (processed, content-hashed images). */
export function isMedia(rel: string, info: BuildInfo): boolean {
  return mediaFolders(info).some((folder) => rel.startsWith(folder));
}

// Asked for every file of a build (70,000 and more): the folders are made once per build description.
const mediaPrefixes = new WeakMap<BuildInfo, string[]>();
function mediaFolders(info: BuildInfo): string[] {
  let folders = mediaPrefixes.get(info);
  if (folders === undefined)
    mediaPrefixes.set(
      info,
      (folders = info.domains
        .filter((d) => d.media_folder !== d.domain)
        .map((d) => `${d.media_folder}/`)),
    );
  return folders;
}

function cacheControl(rel: string, info: BuildInfo): string {
  return isMedia(rel, info) ? CACHE_IMMUTABLE : CACHE_SHORT;
}

const EXPORT_FILE = /^([^/]+)\/_api\/export\/([a-z_]+)\.([a-z]+)$/;

/** The MARC format of each MARC file's extension (`mrc`, `xml`). */
const MARC_EXTENSIONS = new Map(
  MARC_FORMAT_NAMES.map((format) => [MARC_FORMATS[format].extension as string, format]),
);

export function headersFor(rel: string, info: BuildInfo): FileHeaders {
  const headers: FileHeaders = {
    contentType: contentType(rel),
    cacheControl: cacheControl(rel, info),
  };
  const exported = EXPORT_FILE.exec(rel);
  if (exported !== null) {
    const [, domain, kind, extension] = exported as unknown as [string, string, string, string];
    const name = info.domains.find((d) => d.domain === domain)?.exports[kind];
    const marc = MARC_EXTENSIONS.get(extension);
    // The same values as the servers send (routes.ts).
    if (name !== undefined && extension === "xlsx")
      headers.contentDisposition = `attachment; filename="${safeFileName(name)}"`;
    else if (name !== undefined && marc !== undefined) {
      headers.contentType = MARC_FORMATS[marc].type;
      headers.contentDisposition = `attachment; filename="${safeFileName(marcDownloadName(name, marc))}"`;
    }
  }
  return headers;
}

export const sameHeaders = (a: FileHeaders, b: FileHeaders) =>
  a.contentType === b.contentType &&
  a.cacheControl === b.cacheControl &&
  (a.contentDisposition ?? null) === (b.contentDisposition ?? null);
