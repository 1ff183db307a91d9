import { apiImages, type ProcessedImage } from "../media/processed-images.ts";
import type { OutputTree } from "../output/tree.ts";
import type { SiteRenderer } from "../site/render.ts";
import type { SheetWriter } from "../exports/write.ts";
import { sheetJob } from "../exports/sheet-job.ts";
import { writeSheet } from "../exports/xlsx.ts";
import type { ReadInputs } from "./read-inputs.ts";
import { settleAll } from "../util/concurrency.ts";

/** Works × domains from which the writer threads start before the first batch fills (below, a build may need none). */
const EARLY_THREADS_WORKS = 5000;

/** What writes the domains' files: the API's images, the site's renderer, the spreadsheets' queue. */
export class Stages {
  /** The domains' spreadsheets, written while the next domains are built. */
  readonly exports = new ExportQueue();

  private constructor(
    /** The images the API points at, processed, by source path. */
    readonly images: Map<string, ProcessedImage>,
    /** The HTML catalogue's renderer, when the site is built. */
    readonly renderer: SiteRenderer | null,
    /** Whether the MARC files are written beside the spreadsheets. */
    readonly marcFiles: boolean,
  ) {}

  /** Starts the writer threads of a large build, processes the API's images and starts the site's renderer. */
  static async start(tree: OutputTree, inputs: ReadInputs, marcFiles = true): Promise<Stages> {
    startThreadsEarly(tree, inputs);
    inputs.reporter.stage("processing images");
    const images = await apiImages(inputs.catalogue.images.values(), inputs.cacheDir);
    const renderer =
      inputs.renderModule === null
        ? null
        : await inputs.renderModule.SiteRenderer.start(tree, {
            catalogue: inputs.catalogue,
            cacheDir: inputs.cacheDir,
            reporter: inputs.reporter,
            siteFolder: inputs.siteFolder ?? undefined,
          });
    return new Stages(images, renderer, marcFiles);
  }

  /** Waits for every spreadsheet; throws the first failure. */
  async finish(): Promise<void> {
    await this.exports.done();
    this.renderer?.finish();
  }

  /** Waits until nothing writes any more, failed or not (before the tree is dropped). */
  async stop(): Promise<void> {
    await this.exports.settle();
  }
}

/**
 * A large build starts its writer threads before the first batch fills, on the core this one
 * leaves idle while it orders the works and keys the domains: starting them costs time a large
 * build would otherwise wait for at its first batch.
 */
function startThreadsEarly(tree: OutputTree, inputs: ReadInputs): void {
  if (inputs.catalogue.works.length * inputs.domains.length >= EARLY_THREADS_WORKS)
    tree.startThreads();
}

/**
 * The domains' spreadsheets, written (in writer threads) while the next domains are built. Each
 * holds its domain's view until it is written: at most two are in flight.
 */
export class ExportQueue {
  private readonly pending: Promise<void>[] = [];

  async add(done: Promise<void>): Promise<void> {
    done.catch(() => {}); // awaited in done(); never an unhandled rejection meanwhile
    this.pending.push(done);
    if (this.pending.length > EXPORTS_IN_FLIGHT) await this.pending.shift();
  }

  /**
   * Waits for every spreadsheet, then throws the first failure: all have settled by then, so none
   * still writes into the tree when the build drops it (Promise.all would reject at the first
   * failure while the others still copy their files in).
   */
  async done(): Promise<void> {
    await settleAll(this.pending.splice(0));
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
export const sheetWriter =
  (tree: OutputTree): SheetWriter =>
  (file, spec) =>
    tree.threadsStarted || spec.rowCount >= SHEET_THREAD_ROWS
      ? tree.runInThread(sheetJob(file, spec))
      : writeSheet(file, spec);
