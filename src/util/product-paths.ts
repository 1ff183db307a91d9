/**
 * The names the catalogue writes at the root of a domain's site (`<base path>/<name>`), which
 * nothing a library names may take: a language folder, a media folder, an own page. They are
 * defined here once: the site's layout (web/urls.ts), the API's (api/layout.ts) and the build's
 * records (output/catalogue-paths.ts) build their paths from them, content checks domains.csv
 * with them, the site folder's pages are checked with them.
 */

/** The API (`api/v1/…`, the OpenAPI description). */
export const API_FOLDER = "api";
/** The API's responses as files, which servers answer from but never serve under their own path. */
export const API_FILES_FOLDER = "_api";
/** The build's own records (the file list, the build's hosts and paths, the inputs' fingerprint). */
export const RECORDS_FOLDER = "_catalogue";
/** The folders no server answers. */
export const HIDDEN_FOLDERS = [API_FILES_FOLDER, RECORDS_FOLDER] as const;

/** Where media go when `media_url` is left empty: `{base_url}/media`. */
export const DEFAULT_MEDIA_FOLDER = "media";

/** Folders of the HTML catalogue: pages by kind, its styles and scripts. */
export const PAGE_FOLDERS = {
  work: "audiovisual-detail",
  director: "director",
  category: "category",
  page: "page",
  ordering: "ordering",
  assets: "assets",
} as const;

export const SITE_FOLDERS = [
  ...Object.values(PAGE_FOLDERS),
  // Browsing by decade, the new works and those about to leave (kept for them now, so that no
  // library's own page or folder is in their way when they come).
  "decade",
  "new",
  "leaving",
  "browse",
] as const;

/** Files at the site's root (and robots.txt at the host's). */
export const ROOT_FILES = {
  notFound: "404.html",
  sitemap: "sitemap.xml",
  feed: "feed.atom",
  jsonFeed: "feed.json",
  robots: "robots.txt",
} as const;

export const SITE_FILES = Object.values(ROOT_FILES);

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
