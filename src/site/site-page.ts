import { pageCount, PAGE_SIZE } from "../api/layout.ts";
import type { AudiovisualType, Director, DomainBrand, Ordering } from "../content/schema.ts";
import type { ListedWork } from "../model/domain-view.ts";
import type { DomainInfo } from "../output/build-info.ts";
import type { Strings } from "../web/i18n.ts";
import type { Biography } from "./biography.ts";
import type { SiteFolder } from "./folder/folder.ts";
import type { NavLink } from "./folder/own-pages.ts";
import type { Variants } from "./image-variants.ts";
import type { SiteVersion } from "./language-versions.ts";
import type { Shelf } from "./shelves.ts";

/**
 * What every page of one domain shares. Everything here goes into every page's key (src/site/keys.ts)
 * except `images`, of which a page's key takes only the variants it shows, and `strings`, which
 * stand there as `texts`, their digest (they are read from i18n/*.json at run time: a corrected
 * translation changes the keys of the pages). So it holds only what pages show: not the domain's
 * counts or build date, which would change every page's key when one work is added.
 */
export interface DomainSite {
  /** The domain's build description without its counts (listing pages carry their own). */
  info: Omit<DomainInfo, "count" | "total_pages" | "content_security">;
  defaultOrdering: Ordering;
  strings: Strings;
  /** The digest of `strings` (src/web/i18n.ts): the pages' keys take the texts through it. */
  texts: string;
  /** The site root in the output: `<domain><base_path>/`. */
  folder: string;
  /** The media folder seen from the site root ("media/", "../media/"), or its absolute URL on another host. */
  media: { relative: string } | { absolute: string };
  /** Every processed image of the build, by source path. */
  images: Map<string, Variants>;
  /** Categories that have a page (at least one listed work), in the header of every page. */
  categories: Set<AudiovisualType>;
  /** This version's folder below the domain's site root: "" for the locale's, else "L/". */
  prefix: string;
  /** Every version of the domain's site, the locale's first (one: no switcher, no alternates). */
  versions: SiteVersion[];
  /** The locale's version: its site root holds the API the pages link to, for every version. */
  main: { base_url: string; base_path: string };
  /**
   * The library's own look (src/site/folder/): out of the keys as an object, in them through
   * `lookKey`, the digest of what pages show of it ("" without a site folder).
   */
  siteFolder: SiteFolder;
  siteFolderKey: string;
  /** The domain's brand columns (absent: none). */
  brand: DomainBrand;
  /** The own pages the navigation lists, in order. */
  nav: NavLink[];
}

export interface Base {
  /** Folder of the page relative to the site root ("" for the root), or null for the 404 page. */
  dir: string | null;
  site: DomainSite;
}

export type SitePage = Base &
  (
    | {
        kind: "listing";
        ordering: Ordering;
        page: number;
        pages: number;
        count: number;
        works: ListedWork[];
      }
    | {
        kind: "work";
        listed: ListedWork;
        /** What only the work page shows, and so only its key holds (src/site/keys.ts keys a page by its fields). */
        synopsis: Biography | null;
        /** Where to watch or borrow it (the domain's `watch_url`), or null. */
        watch: string | null;
      }
    | { kind: "director"; director: Director; works: ListedWork[] }
    | {
        kind: "category";
        type: AudiovisualType;
        page: number;
        pages: number;
        count: number;
        works: ListedWork[];
      }
    | {
        kind: "browse";
        shelf: Shelf;
        /** The decade of a `decade` page (1960), else null. */
        decade: number | null;
        /** new_days or leaving_days, which the new and leaving pages name; else null. */
        days: number | null;
        page: number;
        pages: number;
        count: number;
        works: ListedWork[];
        /** The decades' index: each decade with its count (empty on the other shelves). */
        decades: { decade: number; count: number }[];
      }
    | { kind: "not-found" }
    | { kind: "own"; title: string; description: string | null; file: string; body: string }
  );

/** The pages of a list of works, 20 a page (`evenEmpty`: one page for an empty list). */
export function* paginate(
  works: ListedWork[],
  make: (slice: ListedWork[], page: number, pages: number) => SitePage,
  evenEmpty = false,
): Generator<SitePage> {
  const pages = Math.max(pageCount(works.length), evenEmpty ? 1 : 0);
  for (let page = 1; page <= pages; page++)
    yield make(works.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), page, pages);
}
