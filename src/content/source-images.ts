import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type sharp from "sharp";
import { FileStates } from "../util/file-states.ts";
import { keepWarm } from "../util/warm.ts";

/** A source image of the content folder, checked to be a real image inside it. */
export interface ImageSource {
  /** The path as written in the CSV, relative to the content folder. */
  rel: string;
  /** The absolute path of the file itself (symlinks resolved). */
  abs: string;
  format: string;
  width: number;
  height: number;
}

const FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "tiff"]);
// Decompression bombs: a small file that decodes to billions of pixels would exhaust memory.
const MAX_PIXELS = 50_000_000;
const MAX_BYTES = 50 * 1024 * 1024;

/** What a check needs of an image's header (one may carry large EXIF and ICC blocks). */
export type ImageHeader = Pick<sharp.Metadata, "format" | "width" | "height">;

/**
 * The headers of images read by earlier builds, by path and file state, kept in the image cache
 * (`headers.json`): reading every cover's header (and loading sharp) again would make a
 * one-title rebuild pay for the whole catalogue's images (docs/performance.md#work-not-done).
 */
export type ImageHeaderCache = FileStates<ImageHeader>;

export const openImageHeaderCache = (cacheDir: string): Promise<ImageHeaderCache> =>
  FileStates.open<ImageHeader>(path.join(cacheDir, "images", "headers.json"));

/**
 * The images' headers read in this process, by path and file state: `catalogue dev` checks every
 * image at each rebuild, and reading them again was most of its "reading content" stage.
 */
const headers = new Map<string, { state: string; header: Promise<ImageHeader> }>();

function readHeader(
  abs: string,
  state: string,
  known: ImageHeaderCache | undefined,
): Promise<ImageHeader> {
  const warm = headers.get(abs);
  if (warm?.state === state) return warm.header;
  const recorded = known?.get(abs, state);
  // An entry of another shape (a damaged index) is read again rather than refuse a good image.
  if (
    recorded !== undefined &&
    typeof recorded.format === "string" &&
    Number.isInteger(recorded.width) &&
    Number.isInteger(recorded.height)
  )
    return Promise.resolve(recorded);
  // sharp (slow to load) only when a header must be read.
  const header = import("sharp")
    .then(({ default: sharp }) => sharp(abs, { limitInputPixels: false }).metadata())
    .then(({ format, width, height }) => ({ format, width, height }));
  if (keepWarm()) headers.set(abs, { state, header });
  header
    .then((read) => known?.set(abs, state, read))
    .catch(() => headers.get(abs)?.header === header && headers.delete(abs));
  return header;
}

/** A folder's real path, resolved once per check of the content (`folders`). */
function realFolder(folder: string, folders: Map<string, string>): string {
  let real = folders.get(folder);
  if (real === undefined) folders.set(folder, (real = realpathSync.native(folder)));
  return real;
}

/**
 * An image the build can do without: missing, or not a readable image. The work gets a cover drawn
 * from its data (the director a drawn photo) and the build goes on, with a warning: one bad row must
 * not stop the nightly build of every domain. `otherCase`: the path of a file that exists with the
 * same name in another case (a folder copied from Windows or macOS, whose file names ignore case).
 */
export interface ImageMissing {
  missing: string;
  otherCase: string | null;
}

/**
 * Checks one image path; returns the source, the image it lacks (`ImageMissing`) or the message
 * explaining what is wrong with the path itself (an error: it could leave the folder). `known`:
 * headers read by earlier builds, trusted while the file's size, times and inode are the same;
 * `folders`: the real paths of folders already resolved by this check of the content.
 */
export async function checkImage(
  contentRoot: string,
  rel: string,
  known?: ImageHeaderCache,
  folders = new Map<string, string>(),
): Promise<ImageSource | ImageMissing | string> {
  if (path.isAbsolute(rel) || rel.includes("\\") || rel.includes("\0")) {
    return `expected a path relative to the content folder (like "covers/title.jpg"), got ${JSON.stringify(rel)}`;
  }
  const normal = path.posix.normalize(rel);
  if (normal === ".." || normal.startsWith("../")) {
    return `the image must be inside the content folder, got ${JSON.stringify(rel)}`;
  }
  // Synchronous: a catalogue with a cover per work checks tens of thousands, and each promise's
  // round trip through libuv's thread pool costs the main thread many times the call itself. A
  // file that is not a symlink is where its folder really is: the folders are resolved once each,
  // not every file's path.
  const joined = path.join(contentRoot, normal);
  let abs: string;
  let info: Stats;
  try {
    info = lstatSync(joined);
    if (info.isSymbolicLink()) {
      abs = realpathSync.native(joined);
      info = statSync(abs);
    } else abs = path.join(realFolder(path.dirname(joined), folders), path.basename(joined));
  } catch {
    return {
      missing: `image file not found: ${JSON.stringify(rel)}`,
      otherCase: inAnotherCase(contentRoot, normal),
    };
  }
  // A symlink may point anywhere; only what it resolves to counts.
  if (!abs.startsWith(contentRoot + path.sep)) {
    return `the image resolves outside the content folder (a symlink?): ${JSON.stringify(rel)}`;
  }
  try {
    if (!info.isFile()) return { missing: `not a file: ${JSON.stringify(rel)}`, otherCase: null };
    if (info.size > MAX_BYTES) return `image file is larger than 50 MB: ${JSON.stringify(rel)}`;
    const meta = await readHeader(
      abs,
      `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`,
      known,
    );
    if (!meta.format || !FORMATS.has(meta.format) || !meta.width || !meta.height) {
      return {
        missing: `not a supported image (JPEG, PNG, WebP, GIF, AVIF or TIFF): ${JSON.stringify(rel)}`,
        otherCase: null,
      };
    }
    if (meta.width * meta.height > MAX_PIXELS) {
      return `image is ${meta.width}x${meta.height} pixels, more than the ${MAX_PIXELS / 1e6} megapixels allowed: ${JSON.stringify(rel)}`;
    }
    return { rel, abs, format: meta.format, width: meta.width, height: meta.height };
  } catch {
    return { missing: `not a readable image: ${JSON.stringify(rel)}`, otherCase: null };
  }
}

/** The path of a file named `rel` but for the case of its letters, segment by segment; null when there is none. */
function inAnotherCase(contentRoot: string, rel: string): string | null {
  let dir = contentRoot;
  const found: string[] = [];
  for (const segment of rel.split("/")) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return null;
    }
    const wanted = segment.toLowerCase();
    const name = names.includes(segment)
      ? segment
      : names.sort().find((n) => n.toLowerCase() === wanted);
    if (name === undefined) return null;
    found.push(name);
    dir = path.join(dir, name);
  }
  const other = found.join("/");
  return other === rel ? null : other;
}
