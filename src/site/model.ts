import {
  AUDIOVISUAL_TYPES,
  ORDERINGS,
  type Audiovisual,
  type AudiovisualType,
  type Domain,
} from "../content/schema.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import type { DomainInfo } from "../output/build-info.ts";
import { synopsis } from "./biography.ts";
import { stringsFor } from "../web/i18n.ts";
import { SiteFolder } from "./folder/folder.ts";
import { stringsWithOverrides } from "./folder/texts.ts";
import { navLinks } from "./folder/own-pages.ts";
import type { DomainBrand } from "../content/schema.ts";
import type { Variants } from "./image-variants.ts";
import { categoryDir, directorDir, listingDir, NOT_FOUND_FILE, workDir } from "../web/urls.ts";
import { browsePages } from "./browse-plan.ts";
import { siteVersions } from "./language-versions.ts";
import { versionOrders } from "./titles.ts";
import { paginate, type DomainSite, type SitePage } from "./site-page.ts";

// The pages' types live with paginate (site-page.ts), so the browse planner can use them.
export type { DomainSite, SitePage } from "./site-page.ts";

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

/** Every page of one version of a domain's site, its lists in the order of the titles it shows. */
export function* sitePages(site: DomainSite, view: DomainView): Generator<SitePage> {
  const orders = versionOrders(view, site.strings.code);
  const byName = orders.name;
  const { defaultOrdering } = site;
  for (const ordering of ORDERINGS) {
    yield* paginate(orders[ordering], (works, page, pages) => ({
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
