import path from "node:path";
import { urlFolder } from "../api/layout.ts";
import { loadCatalogue, type Catalogue } from "../content/load.ts";
import { openImageHeaderCache } from "../content/source-images.ts";
import type { Domain } from "../content/schema.ts";
import { InputError, UserError } from "../errors.ts";
import type { Reporter } from "../util/reporter.ts";
import { apiImages, copyProcessedImage, type ProcessedImage } from "../media/processed-images.ts";
import {
  domainView,
  nameOrders,
  startFromNameOrders,
  type DomainView,
  type ListedWork,
} from "../model/domain-view.ts";
import type { SiteRenderer } from "../site/render.ts";
import {
  BUILD_INFO_PATH,
  buildInfoBytes,
  describeBuild,
  parseBuildInfo,
  type DomainEntry,
  type DomainInfo,
} from "../output/build-info.ts";
import { checkUpToDate, type BuildInputs, type UpToDate } from "./up-to-date.ts";
import { INPUTS_PATH } from "../output/catalogue-paths.ts";
import { readNameOrders, writeNameOrders } from "./name-orders.ts";
import { programDigest } from "../program.ts";
import { domainInputsKey } from "./domain-inputs.ts";
import type { FileEntries } from "../output/entries.ts";
import { OutputTree, type TreeSummary } from "../output/tree.ts";
import { domainInfo, writeDomainApi } from "./domain-files.ts";
import { writeExports, type SheetWriter } from "../exports/write.ts";
import { sheetJob } from "../exports/sheet-job.ts";
import { writeSheet } from "../exports/xlsx.ts";
import { heapGrowingPercent, limitHeapGrowth } from "../util/memory.ts";
import { ownPageProblems, policySettingOf, siteFolderPath } from "./site-folder.ts";

export interface BuildOptions extends BuildInputs {
  /** Where processed images are cached between builds. */
  cacheDir?: string;
  reporter?: Reporter;
  /** Bytes of output packed before a batch goes to a writer thread (tests force threads with a small one). */
  writeBatchBytes?: number;
  /** Documents per part of a domain's search index (tests split small catalogues with a small one). */
  searchDocsPerPart?: number;
  /** The no-change check's answer for these options when the caller made it already (the command line, before loading this). */
  checked?: UpToDate;
}

export interface BuildSummary extends TreeSummary {
  date: string;
  domains: string[];
  seconds: number;
  /** True when the inputs were those of the current output, so nothing was done. */
  skipped: boolean;
  /** Every file of the new output (size, key or MD5, fresh when it differs from the previous version), for a publish that follows (deploy); absent when skipped. */
  manifest?: FileEntries;
  /** The previous version's inputs keys, for a publish planned from the changes (publish/changes.ts). */
  previousKeys?: Record<string, string>;
}

const silent: Reporter = { stage() {}, warning() {} };

/** The whole pipeline: load → validate → plan → render → write, atomically. */
export async function build(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const { date, fingerprint, current } = options.checked ?? (await checkUpToDate(options));
  if (current !== null)
    return { ...current, date, seconds: (performance.now() - started) / 1000, skipped: true };
  // Memory is bounded by the largest domain only if garbage is collected before it piles up.
  const restoreHeapGrowth = limitHeapGrowth();
  try {
    return await buildChanged(options, { date, fingerprint, started });
  } finally {
    restoreHeapGrowth();
  }
}

interface BuildStart {
  date: string;
  fingerprint: string;
  started: number;
}

/** The build of inputs that differ from the current output's. */
async function buildChanged(
  options: BuildOptions,
  { date, fingerprint, started }: BuildStart,
): Promise<BuildSummary> {
  const reporter = options.reporter ?? silent;
  const site = options.site ?? true;
  reporter.stage("reading content");
  const cacheDir = options.cacheDir ?? path.resolve(".cache", "catalogue");
  const headers = await openImageHeaderCache(cacheDir);
  const catalogue = await loadCatalogue(
    options.contentDir,
    (w) => reporter.warning(w),
    headers,
    cacheDir,
  );
  // A cache that cannot be written costs the next build the headers' reading, not this build.
  await headers.save().catch(() => {});
  const domains = selectDomains(catalogue, options.domains);
  limitHeapGrowth(heapGrowingPercent(catalogue.works.length, domains.length, site)); // build() restores the default

  // The site's modules (Eleventy, Pagefind) take seconds to load: only when the site is built,
  // while the images are processed.
  // Eleventy registers a module resolution hook (for its --watch mode, which the build never
  // uses) unless told not to: every import after it, here and in the publisher of a deploy, would
  // then wait on Node's hooks thread.
  if (site) process.env.ELEVENTY_SKIP_ESM_RESOLVER ??= "true";
  const siteModule = site ? import("../site/render.ts") : null;
  siteModule?.catch(() => {}); // awaited below; never an unhandled rejection meanwhile
  // The library's site folder is checked before anything is written: its problems stop the build.
  const siteDir = siteFolderPath(options.contentDir, options.siteDir);
  const look =
    siteModule === null
      ? null
      : (await siteModule).readSiteFolder(siteDir, options.siteDir !== undefined);
  // Own pages on a path a domain's language version, media or the catalogue owns.
  const pageProblems = look === null ? [] : ownPageProblems(look.pages, catalogue.domains);
  if (pageProblems.length > 0) throw new InputError(pageProblems);
  // The pages' added policy sources: read with the site or without, the servers' headers come from build.json.
  const contentSecurity = look !== null ? look.contentSecurity : policySettingOf(siteDir);
  // Nothing the library's files load is blocked silently.
  for (const warning of look?.blockedOn(domains) ?? []) reporter.warning(warning);
  const tree = await OutputTree.open(options.outDir, { batchBytes: options.writeBatchBytes });
  let renderer: SiteRenderer | null = null;
  const exports = new ExportQueue();
  try {
    // A large build starts its writer threads now, on the core this one leaves idle while it
    // orders the works and keys the domains (they start in a few tenths of a second).
    if (catalogue.works.length * domains.length >= EARLY_THREADS_WORKS) tree.startThreads();
    reporter.stage("processing images");
    const images = await apiImages(catalogue.images.values(), cacheDir);
    if (siteModule !== null) {
      const input = {
        catalogue,
        domains,
        date,
        cacheDir,
        reporter,
        searchDocsPerPart: options.searchDocsPerPart,
        look: look ?? undefined,
      };
      renderer = await (await siteModule).SiteRenderer.start(tree, input);
    }

    // Domains whose inputs are those of the previous build keep their folder as it is.
    const previousKeys = await readDomainKeys(tree);
    const previousOrders = await readNameOrders(options.outDir);
    startFromNameOrders(catalogue, previousOrders);
    // The site folder's digest where there is one: a build without it keeps the keys it had.
    const base = JSON.stringify([
      await programDigest(),
      site,
      options.searchDocsPerPart ?? null,
      ...(look?.digest ? [look.digest] : []),
    ]);
    const infos: DomainInfo[] = [];
    const domainKeys: Record<string, string> = {};
    const unchanged: Domain[] = [];
    // One domain at a time: its view, keys and pages are released before the next one's are
    // made, so memory is bounded by the largest domain, not by their number.
    for (const domain of domains) {
      const view = domainView(catalogue, domain, date);
      const info = domainInfo(view, site, contentSecurity);
      infos.push(info);
      // Each work's inputs digest, recorded by domainInputsKey: the HTML page keys are made of them.
      const workDigests = new Map<ListedWork, string>();
      // A logo's bytes count through its processed file's name (a content hash): its pages show it.
      const logo = domain.logo === undefined ? base : `${base}\0${images.get(domain.logo)?.file}`;
      const key = (domainKeys[domain.domain] = domainInputsKey(
        logo,
        view,
        info,
        images,
        workDigests,
      ));
      await writeMedia(tree, view, images);
      await renderer?.placeImages(view, info);
      if (previousKeys[domain.domain] === key) {
        unchanged.push(domain);
        continue;
      }
      reporter.stage(`writing ${domain.domain}`);
      // The spreadsheets go to a writer thread first, so that it writes them while this thread
      // serialises the API's files (a small change otherwise ended waiting for the last domain's
      // spreadsheets); the HTML pages render while the API's files are written (both wait on writes).
      const spreadsheets = exports.add(
        writeExports(tree, view, workDigests, sheetWriter(tree)).then(() =>
          reporter.stage(`wrote the exports of ${domain.domain}`),
        ),
      );
      const pages = renderer?.renderDomain(view, info, workDigests);
      // The API's files wait until the changed parts of the domain's search index are with
      // Pagefind: in its own processes, indexing then runs beside the API and the pages, instead
      // of starting after them (interleaved with the API, keying the work pages was slowed by it,
      // and a rename ended waiting on the last domain's index).
      const api = spreadsheets
        .then(() => renderer?.indexingStarted)
        .then(() => writeDomainApi(tree, view, images, workDigests));
      const [apiDone, pagesDone] = await Promise.allSettled([api, pages]);
      if (apiDone.status === "rejected") throw apiDone.reason;
      if (pagesDone.status === "rejected") throw pagesDone.reason;
    }
    if (unchanged.length > 0) keepDomains(tree, unchanged, domains);
    await exports.done();
    await renderer?.finish();
    reporter.stage(
      `built the API and exports of ${domains.length - unchanged.length} domain(s)${unchanged.length > 0 ? ` (${unchanged.length} unchanged, kept)` : ""}`,
    );
    const order = catalogue.domains.map((d) => d.domain);
    const entries: DomainEntry[] = infos.map((d) => ({
      ...d,
      position: order.indexOf(d.domain),
      date,
    }));
    if (options.domains !== undefined) {
      const built = new Set(domains.map((d) => d.domain));
      const kept = await previousDomains(tree, built);
      // _catalogue/ is rewritten whole; everything outside the rebuilt domains' folders is kept,
      // but media folders only rebuilt domains use (written anew: images they dropped go).
      const overlap = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);
      const rebuiltMedia = infos
        .map((d) => `${d.media_folder}/`)
        .filter((f) => !kept.some((d) => overlap(`${d.media_folder}/`, f)));
      tree.keepPrevious(
        (rel) =>
          !rel.startsWith("_catalogue/") &&
          !built.has(rel.slice(0, rel.indexOf("/"))) &&
          !rebuiltMedia.some((f) => rel.startsWith(f)),
      );
      // With their own dates; their rows as domains.csv has them now.
      for (const d of kept)
        entries.push({
          ...d,
          position: order.includes(d.domain) ? order.indexOf(d.domain) : d.position,
        });
      // Their inputs keys stay valid with their files.
      for (const [domain, key] of Object.entries(previousKeys))
        if (!built.has(domain)) domainKeys[domain] ??= key;
    }
    await tree.write(BUILD_INFO_PATH, buildInfoBytes(describeBuild(entries)));
    // With the number of files, itself included: a build with nothing to do reports it without reading the manifest.
    await tree.write(
      INPUTS_PATH,
      JSON.stringify({ fingerprint, domains: domainKeys, files: tree.held + 1 } satisfies Inputs) +
        "\n",
    );
    // With the orders of locales this build did not rank (--domain), for the builds after it.
    await writeNameOrders(options.outDir, { ...previousOrders, ...nameOrders(catalogue) });
    reporter.stage("switching to the new output");
    const summary = await tree.commit();
    return {
      ...summary,
      date,
      domains: domains.map((d) => d.domain),
      seconds: (performance.now() - started) / 1000,
      skipped: false,
      manifest: tree.entries,
      previousKeys,
    };
  } catch (error) {
    // Nothing may still write when the tree is dropped.
    await exports.settle();
    await renderer?.close();
    await tree.abort();
    throw error;
  }
}

/** Works × domains from which the writer threads start before the first batch fills (below, a build may need none). */
const EARLY_THREADS_WORKS = 5000;

interface Inputs {
  fingerprint: string;
  domains: Record<string, string>;
  files?: number;
}

/** The domains' inputs keys the previous build recorded (none: every domain is built). */
async function readDomainKeys(tree: OutputTree): Promise<Inputs["domains"]> {
  try {
    const inputs = JSON.parse(
      (await tree.readPrevious(INPUTS_PATH))?.toString("utf8") ?? "null",
    ) as Partial<Inputs> | null;
    return inputs?.domains ?? {};
  } catch {
    return {};
  }
}

/**
 * Keeps the previous build's files of unchanged domains: everything in their folders but the
 * processed images, which writeMedia has already placed for every domain (a media folder may be
 * inside another domain's folder, and images no domain uses any more must go).
 */
function keepDomains(tree: OutputTree, unchanged: Domain[], all: Domain[]) {
  const folders = unchanged.map((domain) => `${domain.domain}/`);
  const media = all.map((domain) => `${urlFolder(domain.media_url)}/`);
  tree.keepPrevious(
    (rel) =>
      folders.some((folder) => rel.startsWith(folder)) &&
      !media.some((folder) => rel.startsWith(folder)),
  );
}

function selectDomains(catalogue: Catalogue, names: string[] | undefined): Domain[] {
  if (names === undefined || names.length === 0) return catalogue.domains;
  const known = new Map(catalogue.domains.map((d) => [d.domain, d]));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new UserError(
      `--domain: unknown domain ${unknown.join(", ")}; the domains are: ${[...known.keys()].join(", ")}`,
    );
  }
  return [...new Set(names)].map((n) => known.get(n)!);
}

/**
 * The domains' spreadsheets, written (in writer threads) while the next domains are built. Each
 * holds its domain's view until it is written: at most two are in flight.
 */
class ExportQueue {
  private readonly pending: Promise<void>[] = [];

  async add(done: Promise<void>): Promise<void> {
    done.catch(() => {}); // awaited in done(); never an unhandled rejection meanwhile
    this.pending.push(done);
    if (this.pending.length > EXPORTS_IN_FLIGHT) await this.pending.shift();
  }

  /** Waits for every spreadsheet; throws the first failure. */
  async done(): Promise<void> {
    await Promise.all(this.pending.splice(0));
  }

  /** Waits for every spreadsheet, failed or not. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.pending.splice(0));
  }
}

const EXPORTS_IN_FLIGHT = 2;

/** Rows from which a spreadsheet is written in a writer thread even if none is running yet (below, starting one costs more). */
const SHEET_THREAD_ROWS = 5000;

/** Spreadsheets go to a writer thread when the threads run anyway, or when they are large. */
const sheetWriter =
  (tree: OutputTree): SheetWriter =>
  (file, spec) =>
    tree.threadsStarted || spec.rowCount >= SHEET_THREAD_ROWS
      ? tree.runInThread(sheetJob(file, spec))
      : writeSheet(file, spec);

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

/** With --domain, the domains not rebuilt keep their entry of the previous build description. */
async function previousDomains(tree: OutputTree, built: Set<string>): Promise<DomainEntry[]> {
  const previous = parseBuildInfo(await tree.readPrevious(BUILD_INFO_PATH));
  return previous?.domains.filter((d) => !built.has(d.domain)) ?? [];
}
