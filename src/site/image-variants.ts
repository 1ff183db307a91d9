import type { ImageSource } from "../content/source-images.ts";
import {
  copyProcessedImage,
  processImages,
  type ProcessedImage,
} from "../media/processed-images.ts";
import type { OutputTree } from "../output/tree.ts";
import { html, type Html } from "../web/html.ts";

/**
 * The site's images: covers and director photos as WebP and JPEG at two widths. 480 is also the
 * API's JPEG (eleventy-img names files by source content and width only, so it is the very same
 * file the JSON `cover` points at). Sources narrower than a width are not enlarged: their
 * largest variant is the source width. No AVIF: too slow for tens of thousands of covers.
 */
export const SITE_IMAGE_WIDTHS = [240, 480];
const FORMATS = ["webp", "jpeg"] as const;

export interface Variants {
  webp: ProcessedImage[];
  jpeg: ProcessedImage[];
}

/** Processes (or finds in the disk cache) every variant of the given images, by source path. */
export async function siteImages(
  sources: ImageSource[],
  cacheDir: string,
): Promise<Map<string, Variants>> {
  const processed = await processImages(
    sources,
    { widths: SITE_IMAGE_WIDTHS, formats: [...FORMATS] },
    cacheDir,
  );
  return new Map([...processed].map(([rel, v]) => [rel, { webp: v.webp!, jpeg: v.jpeg! }]));
}

/**
 * Copies the variants into a media folder of the output, once per build (domains may share it).
 * A variant the previous build copied under the same name is kept without reading it (see
 * `copyProcessedImage`).
 */
export async function copyVariants(
  tree: OutputTree,
  mediaFolder: string,
  variants: Iterable<Variants>,
): Promise<void> {
  const files = new Map<string, string>();
  for (const v of variants)
    for (const image of [...v.webp, ...v.jpeg])
      files.set(`${mediaFolder}/${image.file}`, image.cachePath);
  for (const [rel, cachePath] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await copyProcessedImage(tree, rel, cachePath);
  }
}

export interface PictureOptions {
  /** Where the media folder is, seen from the page: "../../media/" or an absolute URL + "/". */
  media: string;
  alt: string;
  sizes: string;
  /** Images above the fold load at once; the others when scrolled near. */
  lazy: boolean;
  className?: string;
}

const srcset = (media: string, list: ProcessedImage[]) =>
  list.map((i) => `${media}${i.file} ${i.width}w`).join(", ");

/** `<picture>` with a WebP source and a JPEG fallback; width and height reserve the space. */
export function picture(v: Variants, o: PictureOptions): Html {
  const largest = v.jpeg.at(-1)!;
  const fallback = v.jpeg.find((i) => i.width >= 480) ?? largest;
  return html`<picture${o.className ? html` class="${o.className}"` : ""}><source type="image/webp" srcset="${srcset(o.media, v.webp)}" sizes="${o.sizes}"><img src="${o.media + fallback.file}" srcset="${srcset(o.media, v.jpeg)}" sizes="${o.sizes}" width="${largest.width}" height="${largest.height}" alt="${o.alt}"${o.lazy ? html` loading="lazy"` : ""} decoding="async"></picture>`;
}
