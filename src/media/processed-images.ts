import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import type { ImageSource } from "../content/source-images.ts";
import type { FileSink } from "../output/sink.ts";
import { mapLimit } from "../util/concurrency.ts";
import { keepWarm } from "../util/warm.ts";
import { atomicWrite, FileStates } from "../util/file-states.ts";
import { codeVersion, type CodeConcern } from "../util/code-version.ts";

/**
 * Processed images, made with @11ty/eleventy-img into a disk cache (`.cache/catalogue/images`
 * by default) that outlives builds: an image whose output is already cached is not processed
 * again. Output names are eleventy-img's content hashes, so identical sources share one file and
 * a changed image gets a new address (which is what lets the CDN cache media forever).
 *
 * eleventy-img would write into the cache itself, but a build killed mid-write would leave a
 * truncated file that every later build trusts. So it runs as a dry run, and this module writes
 * each file atomically (temporary name, then rename) and, last, a small record of the variants
 * of that source; only a complete record counts as a cache hit.
 */

/** The one variant the JSON API points at (`cover`, a director's `photo`); the site adds more. */
const API_IMAGE = { width: 480, format: "jpeg" } as const;

export interface ProcessedImage {
  /** File name under the domain's media folder, e.g. `Ab12Cd34Ef-480.jpeg`. */
  file: string;
  /** Where the processed file lies in the cache. */
  cachePath: string;
  width: number;
  height: number;
}

export interface ImageRequest {
  widths: number[];
  formats: ("jpeg" | "webp" | "png")[];
  /**
   * A colour (`#rrggbb`) to flatten transparency onto: a JPEG has no alpha channel, and without
   * it a logo's transparent ground turns black.
   */
  flatten?: string;
  /**
   * Each variant a square of its width, the image centred on a transparent ground (a favicon
   * from a wide logo; browsers squeeze a wide icon into a square).
   */
  square?: boolean;
}

/**
 * Processes each distinct source image once (by content) and returns, per source path, the
 * variants by format in increasing width.
 */
export async function processImages(
  sources: Iterable<ImageSource>,
  request: ImageRequest,
  cacheDir: string,
): Promise<Map<string, Record<string, ProcessedImage[]>>> {
  const all = [...sources];
  const outputDir = path.resolve(cacheDir, "images");
  await mkdir(outputDir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(
      `cannot use the image cache ${outputDir} (${error.code}): pass --cache DIR with a writable folder`,
      { cause: error },
    );
  });
  const digests = await SourceDigests.open(outputDir);
  const byContent = new Map<string, ImageSource>();
  const contentOf = new Map<string, string>();
  await mapLimit(all, 16, async (source) => {
    const digest = await digests.of(source.abs);
    contentOf.set(source.rel, digest);
    if (!byContent.has(digest)) byContent.set(digest, source);
  });
  await digests.save();
  const unique = [...byContent.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const results = new Map<string, Record<string, ProcessedImage[]>>();
  await mapLimit(unique, 4, async ([digest, source]) => {
    results.set(digest, await processOne(source, digest, request, outputDir));
  });
  return new Map(all.map((source) => [source.rel, results.get(contentOf.get(source.rel)!)!]));
}

/** The API variant of every image of the catalogue, by source path. */
export async function apiImages(
  images: Iterable<ImageSource>,
  cacheDir: string,
): Promise<Map<string, ProcessedImage>> {
  const processed = await processImages(
    images,
    { widths: [API_IMAGE.width], formats: [API_IMAGE.format] },
    cacheDir,
  );
  return new Map([...processed].map(([rel, variants]) => [rel, variants[API_IMAGE.format]![0]!]));
}

interface Recorded {
  format: string;
  file: string;
  width: number;
  height: number;
}

async function processOne(
  source: ImageSource,
  digest: string,
  request: ImageRequest,
  outputDir: string,
) {
  // The record names the request (and a version of these settings) so a change re-processes.
  const tag = requestTag(request);
  const key = `v1.${request.widths.join("-")}.${request.formats.join("-")}${tag}`;
  const record = path.join(outputDir, `${digest}.${key}.json`);
  let variants = records.get(record);
  if (variants !== undefined) return byFormat(variants, outputDir);
  try {
    // Synchronous: one small file per source, tens of thousands for a cover per work, and a
    // promise's read is four round trips through libuv's thread pool.
    variants = JSON.parse(readFileSync(record, "utf8")) as Recorded[];
  } catch {
    // Loaded only when an image is not in the cache yet: slow to load, and every build whose
    // images are all cached (most rebuilds) needs none of it.
    const { default: Image } = await import("@11ty/eleventy-img");
    const stats = await Image(source.abs, {
      widths: request.widths,
      formats: request.formats,
      outputDir,
      urlPath: "/",
      dryRun: true,
      useCache: false,
      svgShortCircuit: false,
      ...(tag === "" ? {} : transformed(request, tag)),
    });
    variants = [];
    for (const [format, list] of Object.entries(stats)) {
      for (const stat of list) {
        await atomicWrite(path.join(outputDir, stat.filename), stat.buffer!);
        variants.push({ format, file: stat.filename, width: stat.width, height: stat.height });
      }
    }
    await atomicWrite(record, JSON.stringify(variants));
  }
  if (keepWarm()) records.set(record, variants);
  return byFormat(variants, outputDir);
}

/** What a request does beyond resizing, as a part of its files' names ("" for nothing). */
function requestTag({ flatten, square, widths }: ImageRequest): string {
  if (flatten !== undefined && !/^#[0-9a-f]{6}$/i.test(flatten))
    throw new Error(`bug: flatten onto ${flatten}, not a #rrggbb colour`);
  if (square && widths.length !== 1) throw new Error("bug: a square request has one width");
  return `${flatten === undefined ? "" : `.on${flatten.slice(1).toLowerCase()}`}${square ? ".square" : ""}`;
}

/**
 * eleventy-img's options for a request that flattens or squares: its `transform`, and a file
 * name that says so (eleventy-img's hash of a source leaves the transform out, so the names of
 * the plain and the transformed variants would otherwise be the same).
 */
function transformed(request: ImageRequest, tag: string) {
  const size = request.widths[0]!;
  return {
    transform(image: import("sharp").Sharp) {
      if (request.flatten !== undefined) image.flatten({ background: request.flatten });
      if (request.square)
        image.resize(size, size, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } });
    },
    filenameFormat: (id: string, _src: string, width: number, format: string) =>
      `${id}${tag.replaceAll(".", "-")}-${width}.${format}`,
  };
}

/**
 * The records read or written by this process: a record never changes once complete (its name
 * holds the source's digest and the request), and `catalogue dev` would read every one of them
 * again at each rebuild (kept in dev only: src/util/warm.ts).
 */
const records = new Map<string, Recorded[]>();

function byFormat(variants: Recorded[], outputDir: string): Record<string, ProcessedImage[]> {
  const formats: Record<string, ProcessedImage[]> = {};
  for (const v of variants) {
    (formats[v.format] ??= []).push({
      file: v.file,
      cachePath: path.join(outputDir, v.file),
      width: v.width,
      height: v.height,
    });
  }
  return formats;
}

/**
 * The content digests of source images, remembered in the cache by path, size, mtime and inode:
 * a rebuild does not read tens of thousands of unchanged covers again (twice: the API's images
 * and the site's), only the ones that changed.
 */
class SourceDigests {
  private constructor(private readonly states: FileStates<string>) {}

  static async open(outputDir: string): Promise<SourceDigests> {
    return new SourceDigests(await FileStates.open<string>(path.join(outputDir, "sources.json")));
  }

  async of(abs: string): Promise<string> {
    // Synchronous, as the content check's (src/content/source-images.ts): tens of thousands of covers.
    const { size, mtimeMs, ino } = statSync(abs);
    const state = `${size}:${mtimeMs}:${ino}`;
    const known = this.states.get(abs, state);
    if (typeof known === "string") return known;
    const digest = createHash("sha1")
      .update(await readFile(abs))
      .digest("hex");
    this.states.set(abs, state, digest);
    return digest;
  }

  save(): Promise<void> {
    return this.states.save();
  }
}

/** What makes the copied images (src/util/code-version.ts): this module, which processes and copies them. */
export const MEDIA_CODE: CodeConcern = { entries: ["src/media/processed-images.ts"] };

/**
 * Copies a processed image from the cache into the output, once per build (domains may share a
 * media folder). eleventy-img names each variant by a hash of its source's content and its
 * processing options (and its width), so the name stands for the bytes and keys the copy: a
 * file the previous build copied under the same name is kept without reading it again (hashing
 * tens of thousands of covers at every build would cost more than the rest of a rebuild). Unlike
 * the cache file's inode or mtime, the name is the same on every machine, so the manifest stays
 * deterministic.
 */
export async function copyProcessedImage(
  tree: FileSink,
  rel: string,
  cachePath: string,
): Promise<void> {
  if (tree.has(rel)) return;
  const key = createHash("md5")
    .update(`${codeVersion(MEDIA_CODE)}\0${path.basename(cachePath)}`)
    .digest("hex");
  if (!tree.reuse(rel, key)) await tree.copyFrom(rel, cachePath, key);
}
