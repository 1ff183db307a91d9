import { pageCount, PAGE_SIZE } from "../api/layout.ts";
import {
  AUDIOVISUAL_TYPES,
  ORDERINGS,
  type Audiovisual,
  type AudiovisualType,
  type Director,
  type Domain,
  type Ordering,
} from "../content/schema.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import type { DomainInfo } from "../output/build-info.ts";
import { synopsis, type Biography } from "./biography.ts";
import { stringsFor, type Strings } from "../web/i18n.ts";
import { SiteFolder } from "./folder/folder.ts";
import { stringsWithOverrides } from "./folder/texts.ts";
import { navLinks, type NavLink } from "./folder/own-pages.ts";
import type { DomainBrand } from "../content/schema.ts";
import type { Variants } from "./image-variants.ts";
import {
  categoryDir,
  decadeDir,
  decadesDir,
  directorDir,
  listingDir,
  NOT_FOUND_FILE,
  shelfDir,
  workDir,
} from "../web/urls.ts";
import { LEAVING_DAYS } from "../content/domain-row.ts";
import { decadeShelves, leavingWorks, newWorks, type Shelf } from "./shelves.ts";
import { siteVersions, type SiteVersion } from "./language-versions.ts";

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

interface Base {
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

/**
 * The global data of the Eleventy run. A class, not a plain object: Eleventy deep-copies plain
 * objects when it merges data, and this must stay one shared instance (no copy of every page).
 */
export class SiteData {
  /**
   * The first error of the run. Errors are kept here instead of thrown through Eleventy, which
   * would wrap them (losing their class) in a message naming every output path of the template:
   * megabytes for a large catalogue. Once set, the remaining pages are skipped.
   */
  failure: unknown = null;
  constructor(
    /** Eleventy's pages: each is one page of a domain in the versions to render (src/site/eleventy.ts). */
    readonly entries: SitePage[][],
    /** Hands a rendered page to the output, by its path relative to the output folder. */
    readonly output: (rel: string, html: string) => Promise<void>,
  ) {}
}

/** The output path of a page (relative to the output folder). */
export const pagePath = (page: SitePage) =>
  page.site.folder + (page.dir === null ? NOT_FOUND_FILE : `${page.dir}index.html`);

/** The sites of a domain: its locale's, then one per other language, sharing the images. */
export function domainSites(
  view: DomainView,
  info: DomainInfo,
  images: Map<string, Variants>,
  look: SiteFolder = SiteFolder.NONE,
): DomainSite[] {
  const versions = siteVersions(view.domain);
  return versions.map((version, i) => {
    const tag = i === 0 ? info.locale : view.domain.languages![i - 1]!;
    const path = version.prefix.slice(0, -1);
    const own =
      i === 0
        ? info
        : {
            ...info,
            name: version.name,
            base_url: `${info.base_url}/${path}`,
            base_path: `${info.base_path}/${path}`,
          };
    return domainSite(
      view,
      own,
      images,
      {
        tag,
        prefix: version.prefix,
        versions,
        main: { base_url: info.base_url, base_path: info.base_path },
      },
      look,
    );
  });
}

type Version = Pick<DomainSite, "prefix" | "versions" | "main"> & { tag: string };

export function domainSite(
  view: DomainView,
  info: DomainInfo,
  images: Map<string, Variants>,
  version?: Version,
  look: SiteFolder = SiteFolder.NONE,
): DomainSite {
  const folder = `${info.domain}${info.base_path}/`;
  // Media under the same host are linked relatively (they then also load from file://); media on
  // another host can only be reached by their absolute URL.
  const sameHost = info.media_folder.startsWith(`${info.domain}/`);
  const media = sameHost
    ? { relative: relativeFolder(folder, `${info.media_folder}/`) }
    : { absolute: `${info.media_url}/` };
  const categories = new Set<AudiovisualType>();
  for (const listed of view.orders.name)
    if (listed.work.audiovisual_type !== null) categories.add(listed.work.audiovisual_type);
  // What the pages show of it: not the counts (each page has its own), nor the policy (a header).
  const { count, total_pages, content_security: _policy, ...shown } = info;
  const defaultOrdering = view.domain.default_ordering;
  const strings =
    look.dir === null
      ? stringsFor(version?.tag ?? info.locale)
      : stringsWithOverrides(look, version?.tag ?? info.locale);
  const versions = version?.versions ?? siteVersions(view.domain);
  const main = version?.main ?? { base_url: info.base_url, base_path: info.base_path };
  const { logo, home_url, theme_color } = view.domain;
  const brand: DomainBrand = {
    ...(logo !== undefined ? { logo } : {}),
    ...(home_url !== undefined ? { home_url } : {}),
    ...(theme_color !== undefined ? { theme_color } : {}),
  };
  const site: DomainSite = {
    info: shown,
    defaultOrdering,
    strings,
    texts: strings.digest,
    folder,
    media,
    images,
    categories,
    prefix: version?.prefix ?? "",
    versions,
    main,
    siteFolder: look,
    siteFolderKey: look.pagesDigest,
    brand,
    nav: navLinks(look.pages, strings.code),
  };
  return site;
}

/** `to` seen from `from`, both folders ending in "/" relative to the output folder. */
function relativeFolder(from: string, to: string): string {
  const a = from.split("/").slice(0, -1);
  const b = to.split("/").slice(0, -1);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return (
    "../".repeat(a.length - common) +
    b
      .slice(common)
      .map((s) => `${s}/`)
      .join("")
  );
}

/** Every page of one domain's site. */
export function* sitePages(site: DomainSite, view: DomainView): Generator<SitePage> {
  const byName = view.orders.name;
  const { defaultOrdering } = site;
  for (const ordering of ORDERINGS) {
    yield* paginate(view.orders[ordering], (works, page, pages) => ({
      kind: "listing",
      dir: listingDir(ordering, defaultOrdering, page),
      site,
      ordering,
      page,
      pages,
      count: byName.length,
      works,
    }));
  }
  for (const listed of byName) yield plannedWorkPage(site, view.domain, listed);

  const byDirector = new Map<number, ListedWork[]>();
  const byCategory = new Map<AudiovisualType, ListedWork[]>(AUDIOVISUAL_TYPES.map((t) => [t, []]));
  for (const listed of byName) {
    if (listed.director !== null) {
      let works = byDirector.get(listed.director.id);
      if (works === undefined) byDirector.set(listed.director.id, (works = []));
      works.push(listed);
    }
    if (listed.work.audiovisual_type !== null)
      byCategory.get(listed.work.audiovisual_type)!.push(listed);
  }
  for (const works of byDirector.values()) {
    const director = works[0]!.director!;
    yield { kind: "director", dir: directorDir(director.slug), site, director, works };
  }
  for (const [type, works] of byCategory) {
    if (works.length === 0) continue;
    yield* paginate(works, (slice, page, pages) => ({
      kind: "category",
      dir: categoryDir(type, page),
      site,
      type,
      page,
      pages,
      count: works.length,
      works: slice,
    }));
  }
  yield* browsePages(site, view);
  yield { kind: "not-found", dir: null, site };
}

/** The browse pages: the decades' index, each decade, the new works and the leaving ones. */
function* browsePages(site: DomainSite, view: DomainView): Generator<SitePage> {
  const shelf = {
    kind: "browse" as const,
    site,
    decade: null,
    days: null,
    decades: [] as { decade: number; count: number }[],
  };
  const decades = decadeShelves(view);
  yield {
    ...shelf,
    shelf: "decades",
    dir: decadesDir(),
    page: 1,
    pages: 1,
    count: view.orders.name.length,
    works: [],
    decades: decades.map(({ decade, works }) => ({ decade, count: works.length })),
  };
  for (const { decade, works } of decades)
    yield* paginate(works, (slice, page, pages) => ({
      ...shelf,
      shelf: "decade",
      decade,
      dir: decadeDir(decade, page),
      page,
      pages,
      count: works.length,
      works: slice,
    }));
  // New and leaving always have a page, empty or not: links and bookmarks to them keep working.
  const shelves = [
    ["new", newWorks(view), view.domain.new_days],
    ["leaving", leavingWorks(view), view.domain.leaving_days ?? LEAVING_DAYS],
  ] as const;
  for (const [name, works, days] of shelves)
    yield* paginate(
      works,
      (slice, page, pages) => ({
        ...shelf,
        shelf: name,
        days,
        dir: shelfDir(name, page),
        page,
        pages,
        count: works.length,
        works: slice,
      }),
      true,
    );
}

/** A work's page in one version of a domain's site: its synopsis in the version's language. */
export function plannedWorkPage(
  site: DomainSite,
  domain: Domain,
  listed: ListedWork,
): Extract<SitePage, { kind: "work" }> {
  const { work } = listed;
  const watch = domain.watch_url === undefined ? null : watchUrl(domain.watch_url, work);
  return {
    kind: "work",
    dir: workDir(work.id, work.slug),
    site,
    listed,
    synopsis: synopsis(work, site.strings.code),
    watch,
  };
}

/** A `watch_url` template (checked by src/content/schema.ts) filled in for a work, its values URL-encoded. */
export const watchUrl = (template: string, work: Pick<Audiovisual, "id" | "slug">): string =>
  template.replace(/\{(id|slug)\}/g, (_, name: string) =>
    encodeURIComponent(name === "id" ? String(work.id) : work.slug),
  );

function* paginate(
  works: ListedWork[],
  make: (slice: ListedWork[], page: number, pages: number) => SitePage,
  evenEmpty = false,
): Generator<SitePage> {
  const pages = Math.max(pageCount(works.length), evenEmpty ? 1 : 0);
  for (let page = 1; page <= pages; page++)
    yield make(works.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), page, pages);
}
