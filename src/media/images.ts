import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import Image from "@11ty/eleventy-img";
import type { ImageSource } from "../content/images.ts";
import { mapLimit } from "../util/concurrency.ts";

/**
 * Processed images, made with @11ty/eleventy-img into a disk cache (`.cache/catalogue/images`
 * by default) that outlives builds: an image whose output is already cached is not processed
 * again. Output names are eleventy-img's content hashes, so identical sources share one file and
 * a changed image gets a new address (which is what lets the CDN cache media forever).
 */

/** The one variant the JSON API points at (`cover`, a director's `photo`); the site adds more. */
export const API_IMAGE = { width: 480, format: "jpeg" } as const;

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
}

interface EleventyStat {
  filename: string;
  outputPath: string;
  width: number;
  height: number;
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
  const byContent = new Map<string, ImageSource>();
  const contentOf = new Map<string, string>();
  await mapLimit(all, 16, async (source) => {
    const digest = createHash("sha1").update(await readFile(source.abs)).digest("hex");
    contentOf.set(source.rel, digest);
    if (!byContent.has(digest)) byContent.set(digest, source);
  });
  const outputDir = path.resolve(cacheDir, "images");
  const unique = [...byContent.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const results = new Map<string, Record<string, ProcessedImage[]>>();
  await mapLimit(unique, 4, async ([digest, source]) => {
    const stats = (await Image(source.abs, {
      widths: request.widths,
      formats: request.formats,
      outputDir,
      urlPath: "/",
      useCache: true,
      svgShortCircuit: false,
    })) as Record<string, EleventyStat[]>;
    const variants: Record<string, ProcessedImage[]> = {};
    for (const [format, list] of Object.entries(stats)) {
      variants[format] = list.map((s) => ({ file: s.filename, cachePath: s.outputPath, width: s.width, height: s.height }));
    }
    results.set(digest, variants);
  });
  return new Map(all.map((source) => [source.rel, results.get(contentOf.get(source.rel)!)!]));
}

/** The API variant of every image of the catalogue, by source path. */
export async function apiImages(images: Iterable<ImageSource>, cacheDir: string): Promise<Map<string, ProcessedImage>> {
  const processed = await processImages(images, { widths: [API_IMAGE.width], formats: [API_IMAGE.format] }, cacheDir);
  return new Map([...processed].map(([rel, variants]) => [rel, variants[API_IMAGE.format]![0]!]));
}
