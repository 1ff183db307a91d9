import type { AudiovisualType, Ordering } from "../content/schema.ts";
import { API_PATH, type ExportKind } from "../api/layout.ts";
import { PAGE_FOLDERS, ROOT_FILES } from "../util/product-paths.ts";

/**
 * The URL layout of a domain's HTML catalogue, relative to its site root (`<base_path>/` on the
 * domain's host, the folder `<domain><base_path>/` of the output). Every page is a folder with an
 * `index.html`, except the 404 page. Pages link to each other with relative URLs (`../../x/`),
 * so a copy of the site works under any prefix and its pages, styles and images also open from
 * file://.
 *
 *   ./                                    listing, the domain's default ordering, page 1
 *   page/<n>/                             listing, default ordering, page n >= 2
 *   ordering/<ordering>/[page/<n>/]       listing in another ordering (name, -name, year, -year)
 *   audiovisual-detail/<id>/<slug>/       a work
 *   director/<slug>/                      a director and their works
 *   category/<type>/[page/<n>/]           a category (peliculas, documentales, …), name order
 *   decade/                               the decades that have works, oldest first
 *   decade/<YYY0>/[page/<n>/]             the works of a decade, name order
 *   new/[page/<n>/]                       the new works, newest first
 *   leaving/[page/<n>/]                   the works about to leave, soonest first
 *   404.html                              the not-found page (root-relative links: any depth)
 *   sitemap.xml, sitemap-<n>.xml          the sitemap (an index of parts past 50,000 URLs or 50 MB)
 *   feed.atom                             the Atom feed of new works
 *   feed.json                             the JSON Feed of new and leaving works (CORS: other sites' shelves)
 *   assets/style.css, assets/browse.js    stylesheet and the filter panel's and search box's script
 */

export const ASSETS_DIR = `${PAGE_FOLDERS.assets}/`;
export const NOT_FOUND_FILE = ROOT_FILES.notFound;
export const SITEMAP_FILE = ROOT_FILES.sitemap;
export const sitemapPartFile = (n: number) => `sitemap-${n}.xml`;
export const FEED_FILE = ROOT_FILES.feed;
export const JSON_FEED_FILE = ROOT_FILES.jsonFeed;
/** The `<catalogue-shelf>` module, in the locale's assets: other sites' pages load it (CORS). */
export const SHELF_SCRIPT = "shelf.js";
/** At the root of the domain's host (the folder `<domain>/`), whatever the base path. */
export const ROBOTS_FILE = ROOT_FILES.robots;

/** `page/<n>/` for a page past the first, "" for the first. */
const pageDir = (page: number) => (page > 1 ? `${PAGE_FOLDERS.page}/${page}/` : "");

export function listingDir(ordering: Ordering, defaultOrdering: Ordering, page: number): string {
  // The default ordering lives at the root only: one URL per page of content.
  const base = ordering === defaultOrdering ? "" : `${PAGE_FOLDERS.ordering}/${ordering}/`;
  return `${base}${pageDir(page)}`;
}

export const workDir = (id: number, slug: string) => `${PAGE_FOLDERS.work}/${id}/${slug}/`;
export const directorDir = (slug: string) => `${PAGE_FOLDERS.director}/${slug}/`;
export const categoryDir = (type: AudiovisualType, page: number) =>
  `${PAGE_FOLDERS.category}/${type}/${pageDir(page)}`;
/** The browse pages, in folders kept for them (SITE_FOLDERS): the decades, one decade, new, leaving. */
export const decadesDir = () => "decade/";
export const decadeDir = (decade: number, page: number) => `decade/${decade}/${pageDir(page)}`;
export const shelfDir = (shelf: "new" | "leaving", page: number) => `${shelf}/${pageDir(page)}`;

/** The API URLs the pages link to, relative to the site root (the API shares the base path). */
const API_URL_DIR = API_PATH.slice(1);
export const apiDetailDir = (id: number) => `${API_URL_DIR}${id}/`;
export const exportDir = (kind: ExportKind) => `${API_URL_DIR}${kind}/`;

/** A link from a page whose root prefix is `root` to `target` (relative to the site root). */
export const link = (root: string, target: string) => root + target || "./";

/** The absolute URL of a page of the site at `dir` (relative to the site root), from the domain's base_url. */
export const absoluteUrl = (baseUrl: string, dir: string) => `${baseUrl}/${dir}`;
