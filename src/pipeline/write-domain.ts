import { urlFolder } from "../api/layout.ts";
import type { Domain } from "../content/schema.ts";
import { copyProcessedImage, type ProcessedImage } from "../media/processed-images.ts";
import { domainView, type DomainView } from "../model/domain-view.ts";
import type { DomainInfo } from "../output/build-info.ts";
import type { OutputTree } from "../output/tree.ts";
import { writeExports } from "../exports/write.ts";
import { programDigest } from "../program.ts";
import { settleAll } from "../util/concurrency.ts";
import { domainInputs } from "./domain-inputs.ts";
import { domainInfo, writeDomainApi } from "./domain-files.ts";
import { marcWriter, writeMarcExports } from "./marc-files.ts";
import type { ReadInputs } from "./read-inputs.ts";
import { sheetWriter, type Stages } from "./stages.ts";

/** What writeDomain did with a domain. */
export interface DomainResult {
  domain: Domain;
  /** Its entry of the build description. */
  info: DomainInfo;
  /** Its inputs key (src/pipeline/domain-inputs.ts). */
  key: string;
  /** True when its inputs were the previous build's: its folder is kept as it is. */
  kept: boolean;
}

/**
 * The part of every domain's inputs key the build's options and the program make: the program's
 * digest, whether the site is built and the site folder's digest where there is one (a build
 * without it keeps the keys it had).
 */
export async function keyBase(inputs: ReadInputs, marcFiles = true): Promise<string> {
  return JSON.stringify([
    await programDigest(),
    inputs.site,
    ...(inputs.siteFolder?.digest ? [inputs.siteFolder.digest] : []),
    ...(marcFiles ? [] : ["no MARC files"]),
  ]);
}

/**
 * The key base of a domain: with a logo, its processed file's name (a content hash), since its
 * pages show it, so that the logo's bytes count in the domain's key.
 */
function domainKeyBase(base: string, domain: Domain, images: Map<string, ProcessedImage>): string {
  return domain.logo === undefined ? base : `${base}\0${images.get(domain.logo)?.file}`;
}

/**
 * Places one domain's media, and writes its spreadsheets, API files and HTML pages unless its
 * inputs key is the previous build's. Its spreadsheets are queued (written while the next domains
 * are built); the rest is written when this returns.
 */
export async function writeDomain(
  tree: OutputTree,
  stages: Stages,
  inputs: ReadInputs,
  domain: Domain,
  previousKeys: Record<string, string>,
  base: string,
): Promise<DomainResult> {
  const { images, renderer } = stages;
  const view = domainView(inputs.catalogue, domain, inputs.date);
  const info = domainInfo(view, inputs.site, inputs.contentSecurity);
  // Each work's inputs digest comes with the key: the HTML page keys are made of them.
  const { key, workDigests } = domainInputs(
    domainKeyBase(base, domain, images),
    view,
    info,
    images,
  );
  await writeMedia(tree, view, images);
  await renderer?.placeImages(view, info);
  if (previousKeys[domain.domain] === key) return { domain, info, key, kept: true };
  inputs.reporter.stage(`writing ${domain.domain}`);
  // The spreadsheets go to a writer thread first, so that it writes them while this thread
  // serialises the API's files (a small change otherwise ended waiting for the last domain's
  // spreadsheets); the HTML pages render while the API's files are written (both wait on writes).
  // The MARC files of the same sets go with them, to another writer thread when there are two.
  const spreadsheets = stages.exports.add(
    // Both settled before the first failure is thrown: nothing writes once the build stops.
    settleAll([
      writeExports(tree, view, workDigests, sheetWriter(tree)),
      stages.marcFiles ? writeMarcExports(tree, view, workDigests, marcWriter(tree)) : null,
    ]).then(() => inputs.reporter.stage(`wrote the exports of ${domain.domain}`)),
  );
  const pages = renderer?.renderDomain(view, info, workDigests);
  const api = spreadsheets.then(() => writeDomainApi(tree, view, images, workDigests));
  await settleAll([api, pages]);
  return { domain, info, key, kept: false };
}

/**
 * Keeps the previous build's files of unchanged domains: everything in their folders but the
 * processed images, which writeMedia has already placed for every domain (a media folder may be
 * inside another domain's folder, and images no domain uses any more must go).
 */
export function keepDomains(tree: OutputTree, unchanged: Domain[], all: Domain[]): void {
  const folders = unchanged.map((domain) => `${domain.domain}/`);
  const media = all.map((domain) => `${urlFolder(domain.media_url)}/`);
  tree.keepPrevious(
    (rel) =>
      folders.some((folder) => rel.startsWith(folder)) &&
      !media.some((folder) => rel.startsWith(folder)),
  );
}

/** Copies the processed images the domain's API points at into its media folder. */
async function writeMedia(tree: OutputTree, view: DomainView, images: Map<string, ProcessedImage>) {
  const folder = urlFolder(view.domain.media_url);
  const used = new Set<string>();
  for (const listed of view.orders.name) {
    used.add(listed.work.cover);
    if (listed.director?.photo) used.add(listed.director.photo);
  }
  for (const rel of [...used].sort()) {
    const image = images.get(rel)!;
    await copyProcessedImage(tree, `${folder}/${image.file}`, image.cachePath);
  }
}
