import type { DomainView } from "../model/domain-view.ts";
import { atomFeed } from "./feed.ts";
import { jsonFeed } from "./json-feed.ts";
import type { DomainSite, SitePage } from "./model.ts";
import { robotsTxt, sitemapFiles, sitemapUrls } from "./sitemap.ts";
import { FEED_FILE, JSON_FEED_FILE, ROBOTS_FILE } from "../web/urls.ts";

/**
 * The files by which a domain's site is found and followed: its sitemap (one file or an index
 * and its parts, every language version's pages with their alternates), an Atom feed of new
 * works and a JSON Feed of new and leaving ones (for other sites' shelves) per language, and `robots.txt` at the root of its host, by path relative to the output
 * folder.
 *
 * They are written keyed by the digest of their text, which costs little to make (URLs and the
 * few new works): a file whose text is unchanged is kept as it was, so renaming a title rewrites
 * the feed only when the work is new, and the sitemap only when its URL (its slug) changed.
 */
export function* discoveryFiles(
  site: DomainSite,
  view: DomainView,
  pages: SitePage[],
): Generator<[string, string]> {
  yield [`${site.folder}${FEED_FILE}`, atomFeed(site, view)];
  yield [`${site.folder}${JSON_FEED_FILE}`, jsonFeed(site, view)];
  // One sitemap and one robots.txt per domain, at the locale's version, whatever its languages.
  if (site.prefix !== "") return;
  for (const [name, text] of sitemapFiles(site.info.base_url, sitemapUrls(site, pages)))
    yield [`${site.folder}${name}`, text];
  yield [`${site.info.domain}/${ROBOTS_FILE}`, robotsTxt(site)];
}
