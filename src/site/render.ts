import { readFile } from "node:fs/promises";
import type { Reporter } from "../build.ts";
import type { Catalogue } from "../content/load.ts";
import type { ImageSource } from "../content/images.ts";
import type { DomainView } from "../model/listing.ts";
import type { DomainInfo } from "../output/build-info.ts";
import type { OutputTree } from "../output/tree.ts";
import { renderPages } from "./eleventy.ts";
import { copyVariants, siteImages, type Variants } from "./images.ts";
import { domainSite, pagePath, sitePages, type SitePage } from "./model.ts";
import { closeSearch, SearchIndex } from "./search.ts";
import { workSearchDocument, type Work } from "./templates/work.ts";
import { ASSETS_DIR } from "./urls.ts";

export interface SiteInput {
  catalogue: Catalogue;
  views: DomainView[];
  infos: DomainInfo[];
  date: string;
  cacheDir: string;
  reporter: Reporter;
}

export interface SiteSummary {
  pages: number;
  searchFiles: number;
}

const ASSET_FILES = ["style.css", "search.js"];

/** Renders the HTML catalogue of every built domain into the output. */
export async function renderSite(tree: OutputTree, input: SiteInput): Promise<SiteSummary> {
  const { catalogue, views, infos, reporter } = input;
  reporter.stage("processing the site's images");
  const images = await siteImages(imagesShown(views, catalogue), input.cacheDir);
  const sites = views.map((view) => domainSite(view, infos.find((i) => i.domain === view.domain.domain)!, images));
  for (const site of sites) {
    await copyVariants(tree, site.info.media_folder, domainImages(site.view, images));
    for (const name of ASSET_FILES) await tree.write(`${site.folder}${ASSETS_DIR}${name}`, await asset(name));
  }

  reporter.stage("rendering the HTML catalogue");
  const pages: SitePage[] = [];
  const indexes: SearchIndex[] = [];
  // Work pages go to their domain's search index as they come out of Eleventy.
  const searched = new Map<string, { index: SearchIndex; page: Work }>();
  try {
    for (const site of sites) {
      const index = await SearchIndex.open(site);
      indexes.push(index);
      for (const page of sitePages(site)) {
        pages.push(page);
        if (page.kind === "work") searched.set(pagePath(page), { index, page });
      }
    }
    const rendered = await renderPages(pages, async (rel, html) => {
      await tree.write(rel, html);
      const target = searched.get(rel);
      if (target !== undefined) await target.index.add(target.page.dir!, workSearchDocument(target.page));
    });
    reporter.stage("writing the search index");
    // The domains' indexes are built side by side (Pagefind builds each on its own threads).
    const built = await Promise.all(indexes.map((index) => index.files()));
    for (const [i, index] of indexes.entries()) await index.write(tree, built[i]!);
    return { pages: rendered, searchFiles: built.reduce((n, files) => n + files.length, 0) };
  } finally {
    await closeSearch();
  }
}

/** The images the pages show: covers of listed works and the photos of directors with `show_img`. */
function imagesShown(views: DomainView[], catalogue: Catalogue): ImageSource[] {
  const rels = new Set<string>();
  for (const view of views) for (const rel of domainImageRels(view)) rels.add(rel);
  return [...rels].sort().map((rel) => catalogue.images.get(rel)!);
}

function domainImageRels(view: DomainView): Set<string> {
  const rels = new Set<string>();
  for (const { work, director } of view.orders.name) {
    rels.add(work.cover);
    if (director?.show_img && director.photo !== null) rels.add(director.photo);
  }
  return rels;
}

const domainImages = (view: DomainView, images: Map<string, Variants>) => [...domainImageRels(view)].map((rel) => images.get(rel)!);

const assets = new Map<string, Promise<Buffer>>();
const asset = (name: string) => {
  let bytes = assets.get(name);
  if (bytes === undefined) assets.set(name, (bytes = readFile(new URL(`./assets/${name}`, import.meta.url))));
  return bytes;
};
