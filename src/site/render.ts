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
  /** The library's own site folder: none by default. */
  siteFolder?: SiteFolder;
}

export interface SiteSummary {
  /** HTML pages of the site. */
  pages: number;
  /** Pages rendered by Eleventy; the others were kept from the previous build (same key). */
  rendered: number;
}

const ASSET_FILES = ["style.css", "browse.js", FAVICON];

/**
 * Renders the HTML catalogue into the output, one domain at a time (the build hands each domain
 * over and releases it when it is done): memory is bounded by the largest domain. Only pages whose
 * key (src/site/keys.ts) differs from the previous build's go through Eleventy: after a title is
 * renamed, its work page and the listing, director and category pages that show it.
 */
export class SiteRenderer {
  private readonly summary: SiteSummary = { pages: 0, rendered: 0 };
  /** Seconds spent in Eleventy runs (the benchmark reports pages per second of Eleventy alone). */
  private eleventySeconds = 0;
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
   * Plans, keys and renders one changed domain's pages, in all the language versions of its site
   * (src/site/language-versions.ts): the images, the model and the API are shared; pages, browse
   * index and feed are each version's own. Each version is planned and keyed in turn; then the
   * pages that changed are rendered, every version of a page in the same Eleventy page
   * (src/site/eleventy.ts).
   */
  async renderDomain(
    view: DomainView,
    info: DomainInfo,
    workDigests: ReadonlyMap<ListedWork, string>,
  ): Promise<void> {
    const versions: SitePage[][] = [];
    const keys = new Map<string, string>();
    for (const site of domainSites(view, info, this.images, this.input.siteFolder)) {
      const planned = await this.planSite(site, view, workDigests);
      versions.push(planned.toRender);
      for (const [rel, key] of planned.keys) keys.set(rel, key);
    }
    const started = performance.now();
    this.summary.rendered += await renderPages(versionEntries(versions), (rel, html) =>
      this.tree.write(rel, html, keys.get(rel)),
    );
    this.eleventySeconds += (performance.now() - started) / 1000;
  }

  /**
   * Plans and keys one version's pages, and writes its assets, discovery files and browse index.
   * Returns its pages to render and their keys by output path; the others are kept from the
   * previous build.
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
    summary.pages += planned.length;
    const toRender: SitePage[] = [];
    const keys = new Map<string, string>();
    for (const page of planned) {
      const rel = pagePath(page);
      const key = keyOf(page);
      if (!tree.reuse(rel, key)) {
        toRender.push(page);
        keys.set(rel, key);
      }
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

  /** Reports what the site did. */
  finish(): SiteSummary {
    const { pages, rendered } = this.summary;
    this.input.reporter.stage(
      `rendered ${rendered} of ${pages} HTML pages (Eleventy ${this.eleventySeconds.toFixed(2)} s)`,
    );
    return this.summary;
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
