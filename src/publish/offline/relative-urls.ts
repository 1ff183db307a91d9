import path from "node:path";
import { API_PATH, API_ROOT, EXPORT_KINDS, detailFile, exportFile } from "../../api/layout.ts";

/**
 * An offline copy is opened from file://, with no server and no network: every page must reach
 * what it loads and what a reader follows by relative paths to files inside the copy. In the
 * archive's HTML, each URL of what a page loads (`img src/srcset`, `source srcset`, `script
 * src`, `link rel=stylesheet|icon|preload` href) and of what a reader follows (`a href`, and
 * relative `link` hrefs such as rel=prev/next) is resolved to a path of the archive:
 *
 * - an absolute URL names the archive folder of its host and path (the output mirrors the URL
 *   space: `https://media.example.org/cat/x.jpg` is `media.example.org/cat/x.jpg`); a
 *   root-relative one is on the page's own host (its first folder);
 * - a link to a folder (`director/x/`) points at its `index.html` (file:// shows a directory
 *   listing for a folder);
 * - the API URLs the pages link to, which need a server, point at the files the server would
 *   answer: a work's JSON (`api/v1/videos/audiovisuals/<id>/`) at `_api/detail/<id>.json`, a
 *   spreadsheet (`…/export_excel/`) at `_api/export/export_excel.xlsx`;
 *
 * and, when that file is in the archive, the URL becomes the relative path to it (the fragment
 * kept). A URL whose file the archive does not hold (another site, a domain left out) stays as
 * it is. Metadata that names the public site stays absolute: canonical and other absolute
 * `<link>`s that load nothing, `<meta>`, JSON-LD. The result depends on the page, its path and
 * the archive's file list only, so the same archive is written byte for byte again.
 */

/** Does the archive hold this file (a path relative to the archive's root)? */
export type Holds = (rel: string) => boolean;

const TAG = /<(a|img|source|script|link)\b[^>]*>/gi;
const URL_ATTRIBUTE = /(\s)(href|src|srcset)="([^"]*)"/gi;
/** `<link>` relations whose href a page loads: rewritten even when absolute. */
const LOADED_LINK = /\brel="[^"]*\b(stylesheet|icon|preload|modulepreload|manifest)\b/i;
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;
const WEB = /^(https?:)?\/\//i;
const API_URL = new RegExp(
  `^([^/]+)/(?:.*/)?${API_PATH.slice(1)}(\\d+|${EXPORT_KINDS.join("|")})/$`,
);

/**
 * The page at `pagePath` (relative to the archive's root) with its URLs pointing inside the
 * archive. `extra(tag)` may add attributes to a rewritten tag (the archive marks the search script
 * with its offline index).
 */
export function offlineHtml(
  html: string,
  pagePath: string,
  holds: Holds,
  extra?: (tag: string) => string,
): string {
  const pageDir = path.posix.dirname(pagePath);
  const host = pagePath.slice(0, pagePath.indexOf("/") + 1);
  return html.replace(TAG, (tag: string, name: string) => {
    const lower = name.toLowerCase();
    const loads = lower !== "link" || LOADED_LINK.test(tag);
    let out = tag.replace(URL_ATTRIBUTE, (all, space: string, attribute: string, value: string) => {
      const rewrite = (url: string) => {
        // Absolute links of metadata name the public site.
        if (!loads && ABSOLUTE.test(url)) return url;
        return offlineUrl(url, pageDir, host, holds);
      };
      const rewritten =
        attribute.toLowerCase() === "srcset" ? rewriteSrcset(value, rewrite) : rewrite(value);
      return rewritten === value ? all : `${space}${attribute}="${rewritten}"`;
    });
    if (extra !== undefined) out = extra(out);
    return out;
  });
}

/** `url 240w, url 480w`: each candidate's URL. */
function rewriteSrcset(value: string, rewrite: (url: string) => string): string {
  return value
    .split(",")
    .map((candidate) =>
      candidate.replace(/^(\s*)(\S+)/, (_, space: string, url: string) => space + rewrite(url)),
    )
    .join(",");
}

/** One URL of a page in folder `pageDir` of host folder `host` ("example.org/"); unchanged when it leads outside. */
export function offlineUrl(value: string, pageDir: string, host: string, holds: Holds): string {
  if (value === "" || value.startsWith("#")) return value;
  // Most URLs already name a file of the copy relatively (a cover, the stylesheet): nothing to do.
  if (
    !ABSOLUTE.test(value) &&
    !value.startsWith("/") &&
    !/\/([?#]|$)/.test(value) &&
    !value.includes(API_ROOT.slice(1))
  )
    return value;
  if (ABSOLUTE.test(value) && !WEB.test(value)) return value; // data:, mailto:, …
  const hash = value.indexOf("#");
  const fragment = hash === -1 ? "" : value.slice(hash);
  const beforeHash = value.slice(0, hash === -1 ? undefined : hash);
  // A page's query (a browse page's "filter and combine" link: `../?decade=1960`) stays on the
  // page's file, where its script reads it; no other file of the copy takes a query.
  const mark = beforeHash.indexOf("?");
  const query = mark === -1 ? "" : beforeHash.slice(mark);
  const target = archivePath(
    beforeHash.slice(0, mark === -1 ? undefined : mark).replaceAll("&amp;", "&"),
    pageDir,
    host,
  );
  if (target === null || !holds(target)) return value;
  if (query !== "" && (!target.endsWith(".html") || API_URL.test(target))) return value;
  return (
    relativePath(pageDir, target).replaceAll("&", "&amp;").replaceAll('"', "&quot;") +
    query +
    fragment
  );
}

/**
 * The path from folder `fromDir` ("." for the root) to file `to`, both normal paths inside the
 * archive. What path.posix.relative does, without resolving both against the working folder
 * (most of its cost, dozens of times per page).
 */
export function relativePath(fromDir: string, to: string): string {
  const from = fromDir === "." ? [] : fromDir.split("/");
  const target = to.split("/");
  let common = 0;
  while (common < from.length && common < target.length - 1 && from[common] === target[common])
    common++;
  return "../".repeat(from.length - common) + target.slice(common).join("/");
}

/**
 * Where a URL's file is in the archive (not checked), or null for a URL with a query or one that
 * climbs above the archive. Plain string work, not `new URL`: a page has dozens of URLs, a copy
 * hundreds of thousands of pages, and the pages' URLs are already in normal form.
 */
function archivePath(url: string, pageDir: string, host: string): string | null {
  if (url.includes("?")) return null;
  let rel: string;
  if (WEB.test(url)) {
    const rest = url.slice(url.indexOf("//") + 2);
    const slash = rest.indexOf("/");
    const authority = (slash === -1 ? rest : rest.slice(0, slash))
      .toLowerCase()
      .replace(/:(80|443)$/, "");
    rel = path.posix.normalize(`${authority}/${slash === -1 ? "" : rest.slice(slash + 1)}`);
  } else
    rel = path.posix.normalize(url.startsWith("/") ? host + url.slice(1) : `${pageDir}/${url}`);
  if (rel.startsWith("../") || rel === "..") return null;
  const api = API_URL.exec(rel);
  if (api !== null) {
    const [, domain, what] = api;
    return /^\d+$/.test(what!) ? `${domain}${detailFile(what!)}` : `${domain}${exportFile(what!)}`;
  }
  if (rel.endsWith("/")) rel += "index.html";
  else if (rel === ".") rel = "index.html";
  return rel;
}
