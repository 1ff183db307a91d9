import { readFile } from "node:fs/promises";
import type { Reporter } from "../util/reporter.ts";
import type { Catalogue } from "../content/load.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import type { DomainInfo } from "../output/build-info.ts";
import { copyProcessedImage, type ProcessedImage } from "../media/processed-images.ts";
import { type OutputTree } from "../output/tree.ts";
import { md5 } from "../util/hash.ts";
import { renderPages, versionEntries } from "./eleventy.ts";
import { copyVariants, siteImages, type Variants } from "./image-variants.ts";
import { pageKeys, siteVersion } from "./keys.ts";
import { domainSites, pagePath, sitePages, type DomainSite, type SitePage } from "./model.ts";
import {
  buildIndex,
  closeSearch,
  partCount,
  partFolder,
  partOf,
  partsFile,
  PARTS_FILE,
  reuseIndex,
  searchKey,
  SEARCH_LANES,
  startSearch,
  writeIndex,
  type SearchDocument,
} from "./search.ts";
import { workSearchDocument } from "./templates/work.ts";
import { discoveryFiles } from "./discovery.ts";
import { browseFiles } from "./browse-index.ts";
import { ASSETS_DIR, SHELF_SCRIPT } from "../web/urls.ts";
import { FAVICON, logoImages, THEME_CSS, themeStylesheet, type LogoVariants } from "./brand.ts";
import type { SiteFolder } from "./folder/folder.ts";
import { ownSitePages } from "./folder/own-site-pages.ts";

export { readSiteFolder } from "./folder/folder.ts";

export interface SiteInput {
  catalogue: Catalogue;
  cacheDir: string;
  reporter: Reporter;
  /** Documents per part of a search index (tests split small catalogues with a small one). */
  searchDocsPerPart?: number;
  /** The library's own site folder: none by default. */
  siteFolder?: SiteFolder;
}

/** A domain's rendering, as renderDomain starts it. */
export interface DomainRendering {
  /**
   * Settles once the domain has handed its changed index parts to Pagefind (or has failed
   * before): the build starts the domain's API files only then (src/pipeline/write-domain.ts).
   */
  indexingStarted: Promise<void>;
  /** Settles once the domain's pages are written; rejects with the rendering's failure. */
  rendered: Promise<void>;
}

export interface SiteSummary {
  /** HTML pages of the site. */
  pages: number;
  /** Pages rendered by Eleventy; the others were kept from the previous build (same key). */
  rendered: number;
  searchFiles: number;
  /** Sites (one per domain and language) whose search index was built, whole or in part; the others kept the previous one (same documents). */
  indexed: number;
  /** Parts of the search indexes built; the others were kept. */
  indexedParts: number;
  searchParts: number;
}

const ASSET_FILES = ["style.css", "search.js", "browse.js", FAVICON];

/**
 * Renders the HTML catalogue into the output, one domain at a time (the build hands each domain
 * over and releases it when it is done): memory is bounded by the largest domain. Only pages whose
 * key (src/site/keys.ts) differs from the previous build's go through Eleventy: after a title is
 * renamed, its work page and the listing, director and category pages that show it.
 */
export class SiteRenderer {
  private readonly summary: SiteSummary = {
    pages: 0,
    rendered: 0,
    searchFiles: 0,
    indexed: 0,
    indexedParts: 0,
    searchParts: 0,
  };
  private sites = 0;
  /** Seconds spent in Eleventy runs (the benchmark reports pages per second of Eleventy alone). */
  private eleventySeconds = 0;
  /**
   * The two Pagefind processes' queues: each part is indexed after the previous one of its lane,
   * so that its documents are rendered just before (not all domains' documents at once).
   */
  private readonly lanes: Promise<unknown>[] = Array.from({ length: SEARCH_LANES }, () =>
    Promise.resolve(),
  );
  /** Each domain's index parts, indexed and written (a domain's pages are rendered meanwhile): the last is the domain being rendered's. */
  private readonly searches: Promise<void>[][] = [];
  // The first failure of an index: it stops the rendering (at its next page) rather than after it.
  private searchFailure: unknown = null;
  private constructor(
    private readonly tree: OutputTree,
    private readonly input: SiteInput,
    private readonly images: Map<string, Variants>,
    private readonly version: string,
  ) {}

  static async start(tree: OutputTree, input: SiteInput): Promise<SiteRenderer> {
    input.reporter.stage("processing the site's images");
    return new SiteRenderer(tree, input, new Map(), await siteVersion());
  }

  /**
   * Processes the images a domain's pages show (those no domain before it showed) and places
   * them in its media folder. Every domain, changed or kept, comes here: media folders may be
   * shared, so the build places every image some domain shows, and only those. Taken from the
   * domain's view, which the build makes anyway: listing every domain's works again beforehand
   * to know its images made a rename noticeably slower.
   */
  async placeImages(view: DomainView, info: DomainInfo): Promise<void> {
    const rels = domainImageRels(view);
    const missing = [...rels].filter((rel) => !this.images.has(rel)).sort();
    if (missing.length > 0) {
      const processed = await siteImages(
        missing.map((rel) => this.input.catalogue.images.get(rel)!),
        this.input.cacheDir,
      );
      for (const [rel, variants] of processed) this.images.set(rel, variants);
    }
    // The logo is processed as a logo (src/site/brand.ts), also where a cover is the same file.
    const { logo } = view.domain;
    let icon: ProcessedImage | undefined;
    if (logo !== undefined) {
      let variants = this.images.get(logo) as Partial<LogoVariants> | undefined;
      if (variants?.icon === undefined) {
        variants = await logoImages(this.input.catalogue.images.get(logo)!, this.input.cacheDir);
        this.images.set(logo, variants as LogoVariants);
      }
      icon = variants.icon;
      rels.add(logo);
    }
    await copyVariants(
      this.tree,
      info.media_folder,
      [...rels].map((rel) => this.images.get(rel)!),
    );
    if (icon !== undefined)
      await copyProcessedImage(this.tree, `${info.media_folder}/${icon.file}`, icon.cachePath);
  }

  /**
   * Plans, keys and renders one changed domain's pages, and starts its search index. Its index
   * parts whose pages changed are indexed while its pages render (Pagefind runs in its own
   * processes); their documents are rendered when a process takes them.
   */
  renderDomain(
    view: DomainView,
    info: DomainInfo,
    workDigests: ReadonlyMap<ListedWork, string>,
  ): DomainRendering {
    let started = () => {};
    const indexingStarted = new Promise<void>((resolve) => (started = resolve));
    const rendered = this.renderPages(view, info, workDigests, started).finally(started);
    return { indexingStarted, rendered };
  }

  /**
   * The language versions of the domain's site (src/site/language-versions.ts): the images, the model and
   * the API are shared; pages, search index and feed are each version's own. Each version is
   * planned and keyed, and its search index started, in turn; then the pages that changed are
   * rendered, every version of a page in the same Eleventy page (src/site/eleventy.ts).
   */
  private async renderPages(
    view: DomainView,
    info: DomainInfo,
    workDigests: ReadonlyMap<ListedWork, string>,
    indexingStarted: () => void,
  ): Promise<void> {
    // The first domain to render: Pagefind's processes start while its pages are planned.
    if (this.sites === 0) startSearch();
    // Indexing runs at most one domain behind: an older domain's pages are not held any longer.
    await Promise.all(this.searches.at(-2) ?? []);
    this.searches.push([]);
    const versions: SitePage[][] = [];
    const keys = new Map<string, string>();
    for (const [i, site] of domainSites(view, info, this.images, this.input.siteFolder).entries()) {
      const planned = await this.planSite(site, view, workDigests);
      versions.push(planned.toRender);
      for (const [rel, key] of planned.keys) keys.set(rel, key);
      if (i === 0) indexingStarted();
    }
    const started = performance.now();
    this.summary.rendered += await renderPages(versionEntries(versions), async (rel, html) => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a caught error, rethrown as it came
      if (this.searchFailure !== null) throw this.searchFailure;
      await this.tree.write(rel, html, keys.get(rel));
    });
    this.eleventySeconds += (performance.now() - started) / 1000;
  }

  /**
   * Plans and keys one version's pages, writes its assets and discovery files, and starts its
   * changed search index parts (the domain's searches). Returns its pages to render and their
   * keys by output path; the others are kept from the previous build.
   */
  private async planSite(
    site: DomainSite,
    view: DomainView,
    workDigests: ReadonlyMap<ListedWork, string>,
  ): Promise<{ toRender: SitePage[]; keys: Map<string, string> }> {
    const { tree, summary } = this;
    await this.writeAssets(site);
    const planned = [...sitePages(site, view), ...ownSitePages(site)];
    for (const [rel, text] of discoveryFiles(site, view, planned))
      await tree.write(rel, text, md5(text));
    // The filter panel's index: a file whose text is the previous build's is kept.
    for (const file of browseFiles(site, view)) {
      const rel = `${site.folder}${file.rel}`;
      if (!tree.reuse(rel, file.key)) await tree.write(rel, file.text, file.key);
    }
    const keyOf = pageKeys(site, this.version, workDigests);
    const keyed = new Array<string>(planned.length);
    summary.pages += planned.length;
    this.sites++;
    // A part's search documents are rendered on this thread when a Pagefind process takes the part:
    // the loops below let that happen now and then.
    let steps = 0;
    const breathe = () => new Promise(setImmediate);
    // The work pages are keyed first, and the parts whose pages changed start indexing before the
    // other pages are keyed. A work page's key covers everything its search document is rendered
    // from, so a part is keyed by its pages' keys: only the documents of changed parts are rendered.
    const parts = partCount(view.orders.name.length, this.input.searchDocsPerPart);
    const works: { page: SitePage & { kind: "work" }; key: string }[][] = Array.from(
      { length: parts },
      () => [],
    );
    for (const [p, page] of planned.entries()) {
      if (page.kind !== "work") continue;
      keyed[p] = keyOf(page);
      works[partOf(page.listed.work.id, parts)]!.push({ page, key: keyed[p] });
      if (++steps % 500 === 0) await breathe();
    }
    const indexedBefore = summary.indexedParts;
    for (const [part, partWorks] of works.entries()) {
      const folder = partFolder(site, part);
      const key = searchKey(site, partWorks, part, parts);
      const kept = reuseIndex(tree, folder, key);
      if (kept > 0) summary.searchFiles += kept;
      else
        this.index(site, folder, key, part, parts, () =>
          partWorks.map(({ page }) => ({ url: page.dir!, content: workSearchDocument(page) })),
        );
    }
    if (summary.indexedParts > indexedBefore) summary.indexed++;
    summary.searchParts += parts;
    await tree.write(`${partFolder(site, 0)}${PARTS_FILE}`, partsFile(parts));

    const toRender: SitePage[] = [];
    const keys = new Map<string, string>();
    for (const [p, page] of planned.entries()) {
      const rel = pagePath(page);
      const key = keyed[p] ?? keyOf(page);
      if (!tree.reuse(rel, key)) {
        toRender.push(page);
        keys.set(rel, key);
      }
      if (++steps % 500 === 0) await breathe();
    }
    return { toRender, keys };
  }

  /**
   * The package's assets, then the library's (site/assets/: a file of the same name replaces the
   * package's), and the theme stylesheet of a domain with `theme_color`.
   */
  private async writeAssets(site: DomainSite): Promise<void> {
    const folder = `${site.folder}${ASSETS_DIR}`;
    const own = new Set(site.siteFolder.assets.map((a) => a.name));
    for (const name of ASSET_FILES)
      if (!own.has(name)) await this.tree.write(`${folder}${name}`, await asset(name));
    // Other sites load the shelf from one place: the locale's assets (served with CORS).
    if (site.prefix === "" && !own.has(SHELF_SCRIPT))
      await this.tree.write(`${folder}${SHELF_SCRIPT}`, await asset(SHELF_SCRIPT));
    for (const { name, bytes } of site.siteFolder.assets)
      await this.tree.write(`${folder}${name}`, bytes);
    if (site.brand.theme_color !== undefined && !own.has(THEME_CSS))
      await this.tree.write(`${folder}${THEME_CSS}`, themeStylesheet(site.brand.theme_color));
  }

  /** Indexes a part in the next Pagefind process's lane, then writes its files (a search of the domain being rendered). */
  private index(
    site: DomainSite,
    folder: string,
    key: string,
    part: number,
    parts: number,
    documents: () => SearchDocument[],
  ): void {
    const lane = this.summary.indexedParts++ % SEARCH_LANES;
    const done = this.lanes[lane]!.then(async () => {
      // A failed part stops the others too: the build fails.
      if (this.searchFailure !== null) return;
      const files = await buildIndex(site, documents(), parts, lane);
      this.summary.searchFiles += await writeIndex(this.tree, folder, files, key, part > 0);
    });
    this.lanes[lane] = done.catch(() => {});
    done.catch((error) => void (this.searchFailure ??= error));
    this.searches.at(-1)!.push(done);
  }

  /** Waits for the search indexes, reports what the site did and stops Pagefind. */
  async finish(): Promise<SiteSummary> {
    this.input.reporter.stage("waiting for the search index");
    try {
      await Promise.all(this.searches.flat());
    } finally {
      await this.close();
    }
    const { pages, rendered, indexed, indexedParts, searchParts } = this.summary;
    this.input.reporter.stage(
      `rendered ${rendered} of ${pages} HTML pages (Eleventy ${this.eleventySeconds.toFixed(2)} s)`,
    );
    this.input.reporter.stage(
      `built the search index (${indexedParts} of ${searchParts} part(s) changed, in ${indexed} of ${this.sites} site(s): one per domain and language)`,
    );
    return this.summary;
  }

  /** Stops Pagefind once nothing indexes any more (also when the build failed). */
  async close(): Promise<void> {
    await Promise.allSettled(this.searches.flat());
    await closeSearch();
  }
}

/** The images a domain's pages show: covers of its works and the photos of their directors with `show_img` (the logo apart). */
function domainImageRels(view: DomainView): Set<string> {
  const rels = new Set<string>();
  for (const { work, director } of view.orders.name) {
    rels.add(work.cover);
    if (director?.show_img && director.photo !== null) rels.add(director.photo);
  }
  return rels;
}

const assets = new Map<string, Promise<Buffer>>();
const asset = (name: string) => {
  let bytes = assets.get(name);
  if (bytes === undefined)
    assets.set(name, (bytes = readFile(new URL(`./assets/${name}`, import.meta.url))));
  return bytes;
};
