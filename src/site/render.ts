import { readFile } from "node:fs/promises";
import type { Reporter } from "../build.ts";
import type { Catalogue } from "../content/load.ts";
import type { ImageSource } from "../content/images.ts";
import type { DomainView, ListedWork } from "../model/listing.ts";
import type { DomainInfo } from "../output/build-info.ts";
import { md5, type OutputTree } from "../output/tree.ts";
import { renderPages } from "./eleventy.ts";
import { copyVariants, siteImages, type Variants } from "./images.ts";
import { pageKeys, siteVersion } from "./keys.ts";
import { domainSite, pagePath, sitePages, type SitePage } from "./model.ts";
import { buildIndex, closeSearch, partCount, partFolder, partOf, partsFile, PARTS_FILE, reuseIndex, searchKey, writeIndex, type IndexFile, type SearchDocument } from "./search.ts";
import { workSearchDocument } from "./templates/work.ts";
import { discoveryFiles } from "./discovery.ts";
import { ASSETS_DIR } from "./urls.ts";

export interface SiteInput {
  catalogue: Catalogue;
  /** Every built domain: their images are placed in their media folders. */
  views: DomainView[];
  /** The domains whose pages are planned (the others are kept whole, see src/domain-inputs.ts). */
  changed: DomainView[];
  infos: DomainInfo[];
  /** The inputs digest of every listed work of the changed domains (src/domain-inputs.ts). */
  workDigests: ReadonlyMap<ListedWork, string>;
  date: string;
  cacheDir: string;
  reporter: Reporter;
  /** Documents per part of a search index (tests split small catalogues with a small one). */
  searchDocsPerPart?: number;
}

export interface SiteSummary {
  /** HTML pages of the site. */
  pages: number;
  /** Pages rendered by Eleventy; the others were kept from the previous build (same key). */
  rendered: number;
  searchFiles: number;
  /** Domains whose search index was built, whole or in part; the others kept the previous one (same documents). */
  indexed: number;
  /** Parts of the search indexes built; the others were kept. */
  indexedParts: number;
  searchParts: number;
}

const ASSET_FILES = ["style.css", "search.js"];

/**
 * Renders the HTML catalogue of every built domain into the output. Only pages whose key
 * (src/site/keys.ts) differs from the previous build's go through Eleventy: after a title is
 * renamed, its work page and the listing, director and category pages that show it.
 */
export async function renderSite(tree: OutputTree, input: SiteInput): Promise<SiteSummary> {
  const { catalogue, infos, reporter } = input;
  reporter.stage("processing the site's images");
  // Every domain's images, kept domains' too: media folders may be shared, so the build places
  // every image some domain shows (and only those).
  const infoOf = (view: DomainView) => infos.find((i) => i.domain === view.domain.domain)!;
  const images = await siteImages(imagesShown(input.views, catalogue), input.cacheDir);
  for (const view of input.views) await copyVariants(tree, infoOf(view).media_folder, domainImages(view, images));
  const views = input.changed;
  const sites = views.map((view) => domainSite(view, infoOf(view), images));
  for (const site of sites) {
    for (const name of ASSET_FILES) await tree.write(`${site.folder}${ASSETS_DIR}${name}`, await asset(name));
  }
  reporter.stage("planning the HTML catalogue");
  const version = await siteVersion();
  const toRender: SitePage[] = [];
  const keys = new Map<string, string>();
  const searches: Promise<{ folder: string; key: string; files: IndexFile[]; merged: boolean } | number>[] = [];
  let pages = 0;
  let indexed = 0;
  let indexedParts = 0;
  let searchParts = 0;
  // The first failure of an index: it stops the rendering (at its next page) rather than after it.
  let searchFailure: unknown = null;
  try {
    // Pagefind indexes the domains started before while this thread plans the next ones, but it
    // needs this thread to send it their documents: the loops below let it run now and then.
    let steps = 0;
    const breathe = () => new Promise(setImmediate);
    // Every domain's work pages are keyed first, and the search index parts whose pages changed
    // start indexing before the other pages are keyed (Pagefind runs in its own processes). A
    // work page's key covers everything its search document is rendered from, so a part is
    // keyed by its pages' keys: only the documents of changed parts are rendered.
    const plans: { planned: SitePage[]; keyed: string[] }[] = [];
    for (const [i, site] of sites.entries()) {
      const view = views[i]!;
      const planned = [...sitePages(site, view)];
      for (const [rel, text] of discoveryFiles(site, view, planned)) await tree.write(rel, text, md5(text));
      const keyOf = pageKeys(site, version, input.workDigests);
      const keyed: string[] = new Array(planned.length);
      pages += planned.length;
      const parts = partCount(view.orders.name.length, input.searchDocsPerPart);
      const works: { page: SitePage & { kind: "work" }; key: string }[][] = Array.from({ length: parts }, () => []);
      for (const [p, page] of planned.entries()) {
        if (page.kind !== "work") continue;
        keyed[p] = keyOf(page);
        works[partOf(page.listed.work.id, parts)]!.push({ page, key: keyed[p]! });
        if (++steps % 500 === 0) await breathe();
      }
      let changed = false;
      for (const [part, partWorks] of works.entries()) {
        const folder = partFolder(site, part);
        const key = searchKey(site, partWorks, part, parts);
        const kept = reuseIndex(tree, folder, key);
        if (kept === 0) changed = true;
        const documents = (): SearchDocument[] => partWorks.map(({ page }) => ({ url: page.dir!, content: workSearchDocument(page) }));
        // Parts to index go to the two Pagefind processes in turn.
        const search = kept > 0 ? Promise.resolve(kept) : buildIndex(site, documents(), parts, indexedParts++ % 2 === 1).then((files) => ({ folder, key, files, merged: part > 0 }));
        search.catch((error) => void (searchFailure ??= error));
        searches.push(search);
      }
      if (changed) indexed++;
      searchParts += parts;
      await tree.write(`${partFolder(site, 0)}${PARTS_FILE}`, partsFile(parts));
      for (const [p, page] of planned.entries()) if (keyed[p] === undefined) keyed[p] = keyOf(page);
      plans.push({ planned, keyed });
    }
    for (const { planned, keyed } of plans) {
      for (const [p, page] of planned.entries()) {
        const rel = pagePath(page);
        const key = keyed[p]!;
        if (!tree.reuse(rel, key)) {
          toRender.push(page);
          keys.set(rel, key);
        }
        if (++steps % 500 === 0) await breathe();
      }
    }

    reporter.stage(`rendering ${toRender.length} of ${pages} HTML pages`);
    const rendered = await renderPages(toRender, async (rel, html) => {
      if (searchFailure !== null) throw searchFailure;
      await tree.write(rel, html, keys.get(rel));
    });
    reporter.stage(`building the search index (${indexedParts} of ${searchParts} part(s) changed, in ${indexed} of ${sites.length} domain(s))`);
    let searchFiles = 0;
    for (const result of await Promise.all(searches)) {
      if (typeof result === "number") searchFiles += result;
      else {
        searchFiles += await writeIndex(tree, result.folder, result.files, result.key, result.merged);
      }
    }
    return { pages, rendered, searchFiles, indexed, indexedParts, searchParts };
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
