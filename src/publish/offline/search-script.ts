import path from "node:path";
import { titleCollator } from "../../model/order.ts";
import { PAGE_FOLDERS } from "../../util/product-paths.ts";
import { ASSETS_DIR } from "../../web/urls.ts";

/**
 * No longer written into archives: their pages search the site's own index (browse/*.js, the
 * filter panel's, src/site/browse-index.ts), which loads from file:// as it is. Kept only for
 * scripts/offline-index-size.ts, which measures it; both go together.
 *
 * The search index of an offline copy. From file://, Chromium refuses Pagefind's `import()` and
 * `fetch()` (each file is an origin of its own), but a classic `<script src>` loads. So an
 * archive carries, per site, one script that assigns the works' titles, directors and page
 * paths to a global, and the site's search script (src/site/assets/search.js) loads it on first
 * use and matches the words typed against it. It is made for archives only, never for a served
 * site, which keeps Pagefind.
 *
 * The index lists the work pages of the copy; each one's title and director come from the build's
 * retrieve document of that work (`_api/detail/<id>.json`), the data the page was made from, not
 * from the page's markup, which a library's own `work.liquid` may write in any shape.
 * Directors are listed once and referred to by number. Works are in title order (the site's
 * `name` ordering: the domain's collation, ties by id), so the browser shows matches in that
 * order without sorting tens of thousands of titles; the same pages give the same bytes.
 */

/** Where a site's offline index goes, relative to the site root. */
export const OFFLINE_INDEX = `${ASSETS_DIR}search-index.js`;
/** The global the index script assigns (search.js reads it). */
const GLOBAL = "catalogueSearchIndex";
/** A work page's path below its site root (src/web/urls.ts, workDir). */
const WORK_PAGE = new RegExp(`^${PAGE_FOLDERS.work}/(\\d+)/([^/]+)/index\\.html$`);
/** A work page's path from the index's folder (`assets/`), to which search.js resolves it. */
const PAGE_PATTERN = path.posix.relative(
  path.posix.dirname(OFFLINE_INDEX),
  `${PAGE_FOLDERS.work}/{id}/{slug}/index.html`,
);

export interface SearchEntry {
  id: number;
  slug: string;
  title: string;
  director: string | null;
}

/** The id and slug of a work page, from its path below the site root; null for other pages. */
export function workPagePath(inSite: string): { id: number; slug: string } | null {
  const match = WORK_PAGE.exec(inSite);
  return match === null ? null : { id: Number(match[1]), slug: match[2]! };
}

/** What the index holds of a work page, from the work's retrieve document (its JSON text). */
export function searchEntry(
  page: { id: number; slug: string },
  detail: string,
  rel: string,
): SearchEntry {
  const work = JSON.parse(detail) as { name?: unknown; director?: { name?: unknown } | null };
  // The build writes both: a retrieve document without a title is a bug, not bad input.
  if (typeof work.name !== "string") throw new Error(`bug: no "name" in ${rel}`);
  const director = work.director?.name;
  return { ...page, title: work.name, director: typeof director === "string" ? director : null };
}

/**
 * The index script of a site in `locale`:
 * `self.catalogueSearchIndex=JSON.parse('{"page":…,"directors":[…],"works":[[title,director,id,slug],…]}');`
 */
export function searchIndexScript(entries: readonly SearchEntry[], locale: string): string {
  const collator = titleCollator(locale);
  const directors = new Map<string, number>();
  const works = [...entries]
    .sort((a, b) => collator.compare(a.title, b.title) || a.id - b.id)
    .map(({ id, slug, title, director }) => {
      let d = -1;
      if (director !== null) {
        d = directors.get(director) ?? directors.size;
        directors.set(director, d);
      }
      return [title, d, id, slug];
    });
  // JSON.parse of a string literal: browsers parse that much faster than the same object as code.
  const json = JSON.stringify({ page: PAGE_PATTERN, directors: [...directors.keys()], works });
  return `self.${GLOBAL}=JSON.parse('${json.replace(/['\\]/g, (c) => `\\${c}`)}');\n`;
}
