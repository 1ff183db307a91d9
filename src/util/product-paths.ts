/**
 * The names the catalogue writes at the root of a domain's site (`<base path>/<name>`), which
 * nothing a library names may take: a language folder, a media folder, an own page. The site's
 * layout (site/urls.ts) and the API's (api/layout.ts) spell them out where they build URLs; this
 * is the one list of them that every part may import (content checks domains.csv with it, the
 * site folder's pages are checked with it), and test/util/product-paths.test.ts holds it equal to
 * those modules' constants.
 */

/** The API (`api/v1/…`, the OpenAPI description) and the raw files no server answers. */
export const API_FOLDER = "api";
export const HIDDEN_FOLDERS = ["_api", "_catalogue"] as const;

/** Where media go when `media_url` is left empty: `{base_url}/media`. */
export const DEFAULT_MEDIA_FOLDER = "media";

/** Folders of the HTML catalogue: pages by kind, its styles and scripts, its search index. */
export const SITE_FOLDERS = [
  "audiovisual-detail",
  "director",
  "category",
  "page",
  "ordering",
  "assets",
  "pagefind",
  // Browsing by decade, the new works and those about to leave (kept for them now, so that no
  // library's own page or folder is in their way when they come).
  "decade",
  "new",
  "leaving",
  "browse",
] as const;

/** Files at the site's root (and robots.txt at the host's). */
export const SITE_FILES = [
  "404.html",
  "sitemap.xml",
  "feed.atom",
  "feed.json",
  "robots.txt",
] as const;

const NAMES: ReadonlySet<string> = new Set<string>([
  API_FOLDER,
  ...HIDDEN_FOLDERS,
  DEFAULT_MEDIA_FOLDER,
  ...SITE_FOLDERS,
  ...SITE_FILES,
]);

/** The sitemap's parts past 50,000 URLs: sitemap-1.xml, sitemap-2.xml, … */
const SITEMAP_PART = /^sitemap-[0-9]+\.xml$/;

/** Whether a name at a site's root is the catalogue's own. */
export const isProductPath = (name: string): boolean => NAMES.has(name) || SITEMAP_PART.test(name);

/** Every fixed name, for messages and docs. */
export const PRODUCT_PATHS: readonly string[] = [...NAMES];
