import path from "node:path";
import { detailPath } from "../../api/layout.ts";
import { BUILD_INFO_PATH, parseBuildInfo, type DomainInfo } from "../../output/build-info.ts";
import { type FileEntry } from "../../output/tree.ts";
import { md5 } from "../../util/hash.ts";
import { offlineHtml, relativePath } from "./relative-urls.ts";
import { homePage, ROOT_PAGE, rootPage } from "./root-page.ts";
import { FEED_FILE } from "../../web/urls.ts";
import {
  OFFLINE_INDEX,
  searchEntry,
  searchIndexScript,
  workPagePath,
  type SearchEntry,
} from "./search-script.ts";

/**
 * What an offline copy holds beyond the build's files, and instead of some: every HTML page
 * rewritten to reach only files of the copy (relative-urls.ts), each site's search index for file://
 * (search-script.ts) and a root `index.html` (root-page.ts). Made from the build's files
 * alone (their paths, the pages' text, `_catalogue/build.json`), so the same build gives the
 * same copy.
 */

/** The search script's tag: the one that names Pagefind's bundle. */
const SEARCH_SCRIPT = /^<script\b[^>]*\sdata-pagefind="/i;

/** Reads a file of the build as text. */
export type ReadText = (rel: string) => Promise<string>;

export interface OfflineCopy {
  /** New files (the root page, the search indexes), by path. */
  added: Map<string, Buffer>;
  /** The pages the copy rewrites, with the size and MD5 of their rewritten bytes. */
  pages: Map<string, FileEntry>;
  /** A page's rewritten bytes, from its text in the build. */
  page(rel: string, html: string): Buffer;
}

/**
 * Plans the copy of the build's files `paths`: reads every page once (for the file list) and each
 * work's retrieve document (for the search index) and keeps none of them, so a copy of hundreds of thousands of pages is written
 * page by page (`page`) in little memory.
 */
export async function offlineCopy(paths: readonly string[], read: ReadText): Promise<OfflineCopy> {
  const info = paths.includes(BUILD_INFO_PATH) ? parseBuildInfo(await read(BUILD_INFO_PATH)) : null;
  if (paths.includes(BUILD_INFO_PATH) && info === null)
    throw new Error(`bug: the build's ${BUILD_INFO_PATH} does not parse`);
  const domains = info?.domains ?? [];
  // A domain's catalogue is in the copy when its home page is (a --no-site domain has none).
  const present = new Set(paths);
  const sites: { domain: DomainInfo; root: string }[] = domains
    .filter((d) => present.has(homePage(d)))
    .map((d) => ({ domain: d, root: homePage(d).slice(0, -"index.html".length) }));
  sites.push(...languageVersions(sites, paths));
  // The deepest root first: a page of a language version belongs to it, not to the domain's root.
  sites.sort((a, b) => b.root.length - a.root.length);
  const added = new Map<string, Buffer>();
  if (!present.has(ROOT_PAGE) && domains.length > 0)
    added.set(ROOT_PAGE, Buffer.from(rootPage(withSite(domains, sites))));
  for (const { root } of sites) present.add(root + OFFLINE_INDEX);
  present.add(ROOT_PAGE);
  const siteOf = (rel: string) => sites.find(({ root }) => rel.startsWith(root));

  const page = (rel: string, html: string) => {
    const site = siteOf(rel);
    const index =
      site === undefined ? null : relativePath(path.posix.dirname(rel), site.root + OFFLINE_INDEX);
    const mark = (tag: string) =>
      index !== null && SEARCH_SCRIPT.test(tag)
        ? tag.replace(/>$/, ` data-offline-search="${index}">`)
        : tag;
    return Buffer.from(offlineHtml(html, rel, (p) => present.has(p), mark));
  };
  const entries = new Map<string, SearchEntry[]>(sites.map(({ root }) => [root, []]));
  const pages = new Map<string, FileEntry>();
  for (const rel of paths) {
    if (!rel.endsWith(".html")) continue;
    const html = await read(rel);
    const site = siteOf(rel);
    const work = site === undefined ? null : workPagePath(rel.slice(site.root.length));
    if (work !== null) {
      const detail = detailPath(site!.domain.domain, work.id);
      entries.get(site!.root)!.push(searchEntry(work, await read(detail), detail));
    }
    const bytes = page(rel, html);
    pages.set(rel, { size: bytes.length, md5: md5(bytes) });
  }
  for (const { domain, root } of sites)
    added.set(
      root + OFFLINE_INDEX,
      Buffer.from(searchIndexScript(entries.get(root)!, domain.locale)),
    );
  return { added, pages, page };
}

/**
 * The language versions of the sites (src/site/language-versions.ts): a folder `{L}/` of a site root that
 * holds its own feed is one. Each gets its own offline index, collated in its language.
 */
function languageVersions(
  sites: readonly { domain: DomainInfo; root: string }[],
  paths: readonly string[],
): { domain: DomainInfo; root: string }[] {
  const found: { domain: DomainInfo; root: string }[] = [];
  for (const { domain, root } of sites) {
    for (const rel of paths) {
      const match = rel.startsWith(root) ? VERSION_FEED.exec(rel.slice(root.length)) : null;
      if (match !== null)
        found.push({ domain: { ...domain, locale: match[1]! }, root: `${root}${match[1]}/` });
    }
  }
  return found;
}

const VERSION_FEED = new RegExp(`^([a-z]{2,3}(?:-[a-z0-9]+)*)/${FEED_FILE.replace(".", "\\.")}$`);

/** The domains, each marked with whether its catalogue is in the copy. */
const withSite = (domains: DomainInfo[], sites: { domain: DomainInfo }[]) =>
  domains.map((d) => ({ ...d, site: sites.some((s) => s.domain === d) }));
