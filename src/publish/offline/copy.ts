import path from "node:path";
import { BUILD_INFO_PATH, parseBuildInfo } from "../../output/build-info.ts";
import { type FileEntry } from "../../output/tree.ts";
import { md5 } from "../../util/hash.ts";
import { offlineHtml, relativePath } from "./relative-urls.ts";
import { homePage, ROOT_PAGE, rootPage } from "./root-page.ts";

/**
 * What an offline copy holds beyond the build's files, and instead of some: every HTML page
 * rewritten to reach only files of the copy (relative-urls.ts), the filter panel's script pointed at
 * the copy's media, and a root `index.html` (root-page.ts). The panel and its search load the
 * site's own index (`browse/*.js`, classic scripts) from file:// as they do from a server. Made from the build's files
 * alone (their paths, the pages' text, `_catalogue/build.json`), so the same build gives the
 * same copy.
 */

/** Reads a file of the build as text. */
export type ReadText = (rel: string) => Promise<string>;

export interface OfflineCopy {
  /** New files (the root page), by path. */
  added: Map<string, Buffer>;
  /** The pages the copy rewrites, with the size and MD5 of their rewritten bytes. */
  pages: Map<string, FileEntry>;
  /** A page's rewritten bytes, from its text in the build. */
  page(rel: string, html: string): Buffer;
}

/**
 * Plans the copy of the build's files `paths`: reads every page once (for the file list) and keeps
 * none of them, so a copy of hundreds of thousands of pages is written page by page (`page`) in
 * little memory.
 */
export async function offlineCopy(paths: readonly string[], read: ReadText): Promise<OfflineCopy> {
  const info = paths.includes(BUILD_INFO_PATH) ? parseBuildInfo(await read(BUILD_INFO_PATH)) : null;
  if (paths.includes(BUILD_INFO_PATH) && info === null)
    throw new Error(`bug: the build's ${BUILD_INFO_PATH} does not parse`);
  const domains = info?.domains ?? [];
  // A domain's catalogue is in the copy when its home page is (a --no-site domain has none).
  const present = new Set(paths);
  const sites = domains.filter((d) => present.has(homePage(d)));
  const added = new Map<string, Buffer>();
  if (!present.has(ROOT_PAGE) && domains.length > 0)
    added.set(
      ROOT_PAGE,
      Buffer.from(rootPage(domains.map((d) => ({ ...d, site: sites.includes(d) })))),
    );
  present.add(ROOT_PAGE);
  const media = mediaFolders(paths);

  const page = (rel: string, html: string) => {
    const pageDir = path.posix.dirname(rel);
    // The filter panel's script draws covers from the media folder it names: on another host,
    // that folder's copy in the archive.
    const mark = (tag: string) =>
      tag.replace(BROWSE_MEDIA, (all, url: string) => {
        const folder = url.replace(WEB_URL, "").replace(/\/$/, "");
        return WEB_URL.test(url) && media.has(folder)
          ? ` data-media="${relativePath(pageDir, folder)}/"`
          : all;
      });
    return Buffer.from(offlineHtml(html, rel, (p) => present.has(p), mark));
  };
  const pages = new Map<string, FileEntry>();
  for (const rel of paths) {
    if (!rel.endsWith(".html")) continue;
    const bytes = page(rel, await read(rel));
    pages.set(rel, { size: bytes.length, md5: md5(bytes) });
  }
  return { added, pages, page };
}

/** The `data-media` of the filter panel's script (src/site/templates/filters.ts). */
const BROWSE_MEDIA = /\sdata-media="([^"]*)"/i;
const WEB_URL = /^(?:https?:)?\/\//i;

/** Every folder of the archive that holds files (`host/path`, no trailing slash). */
function mediaFolders(paths: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const rel of paths) folders.add(path.posix.dirname(rel));
  return folders;
}
