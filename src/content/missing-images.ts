import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { atomicWrite } from "../util/file-states.ts";
import type { ImageSource } from "./source-images.ts";
import type { Audiovisual, Director } from "./schema.ts";

/** An image the content names but lacks, and the row its stand-in is drawn from. */
export type ToDraw =
  | { rel: string; kind: "cover"; work: Audiovisual; director: string }
  | { rel: string; kind: "photo"; director: Director };

/**
 * Draws a stand-in for each missing image, as `catalogue init` draws the starter's covers, into
 * the cache folder (`drawn/`, named by the drawing's digest: the same row gives the same file, and
 * a file there is complete, written atomically). The API's `cover` then points at a real file,
 * with or without the HTML site, and the image goes through the same processing as any other.
 */
export async function drawMissing(
  missing: readonly ToDraw[],
  cacheDir: string,
): Promise<ImageSource[]> {
  if (missing.length === 0) return [];
  // sharp loads only when an image is missing.
  const { coverSvg, photoSvg, renderJpeg } = await import("../draw/draw.ts");
  const dir = path.resolve(cacheDir, "drawn");
  await mkdir(dir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(
      `cannot use the image cache ${dir} (${error.code}): pass --cache DIR with a writable folder`,
      { cause: error },
    );
  });
  const drawn: ImageSource[] = [];
  for (const item of missing) {
    const svg =
      item.kind === "cover"
        ? coverSvg(
            {
              name: item.work.name,
              slug: item.work.slug,
              audiovisual_type: item.work.audiovisual_type ?? undefined,
              year: item.work.year === null ? undefined : String(item.work.year),
            },
            item.director,
          )
        : photoSvg({ name: item.director.name, slug: item.director.slug });
    const file = path.join(
      dir,
      `${createHash("sha256").update(svg).digest("hex").slice(0, 32)}.jpg`,
    );
    if (!existsSync(file)) await atomicWrite(file, await renderJpeg(svg));
    const [width, height] = item.kind === "cover" ? [400, 600] : [300, 300];
    drawn.push({ rel: item.rel, abs: file, format: "jpeg", width, height });
  }
  return drawn;
}
