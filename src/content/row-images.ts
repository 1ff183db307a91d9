import path from "node:path";
import type { Problem } from "../errors.ts";
import { mapLimit } from "../util/concurrency.ts";
import type { ToDraw } from "./drawn.ts";
import { checkImage, type ImageMissing, type ImageSource, type KnownHeaders } from "./images.ts";
import type { Audiovisual, Director, Domain } from "./schema.ts";

/**
 * The images the rows name (covers, photos, logos), each path checked once: a bad one is a
 * problem at every cell that names it; a missing cover or photo a warning and a drawing to make,
 * a missing logo a warning and the library's name instead.
 */

/** A cell that names an image, and the row it is in. */
export interface ImageUse {
  file: string;
  line: number;
  column: string;
  rel: string;
  kind: "cover" | "photo";
  row: Audiovisual | Director;
}

export async function checkImages(
  contentDir: string,
  root: string,
  known: KnownHeaders | undefined,
  uses: ImageUse[],
  toDraw: (use: ImageUse) => ToDraw,
  found: { problems: Problem[]; warnings: Problem[]; missing: ToDraw[] },
): Promise<Map<string, ImageSource>> {
  const paths = [...new Set(uses.map((u) => u.rel))];
  const folders = new Map<string, string>();
  const results = await mapLimit(paths, 8, (rel) => checkImage(root, rel, known, folders));
  const images = new Map<string, ImageSource>();
  const failures = new Map<string, string | ImageMissing>();
  paths.forEach((rel, i) => {
    const result = results[i]!;
    if (typeof result === "string" || "missing" in result) failures.set(rel, result);
    else images.set(rel, result);
  });
  const drawn = new Set<string>();
  for (const use of uses) {
    const failure = failures.get(use.rel);
    if (failure === undefined) continue;
    const { file, line, column } = use;
    if (typeof failure === "string") {
      found.problems.push({ file, line, column, message: failure });
      continue;
    }
    // Where the path leads from the content folder as the user named it, and a near miss in case.
    const where = path.join(contentDir, use.rel);
    const otherCase = failure.otherCase === null ? "" : `; ${JSON.stringify(failure.otherCase)} exists, in another case`;
    const stand = use.kind === "cover" ? "a cover drawn from the row is used" : "a drawn photo is used";
    found.warnings.push({ file, line, column, message: `${failure.missing} (${where}${otherCase}): ${stand}` });
    if (!drawn.has(use.rel)) found.missing.push(toDraw(use));
    drawn.add(use.rel);
  }
  return images;
}

/**
 * The domains' logos (domains.csv `logo`), processed as covers are. A missing one is a warning, as
 * a missing cover is, and the site shows the library's name instead (a drawn stand-in of a logo
 * would stand for nothing).
 */
export async function checkLogos(
  contentDir: string,
  root: string,
  known: KnownHeaders | undefined,
  domains: { line: number; value: Domain }[],
  file: string,
  images: Map<string, ImageSource>,
  found: { problems: Problem[]; warnings: Problem[] },
): Promise<void> {
  const folders = new Map<string, string>();
  for (const { line, value } of domains) {
    const rel = value.logo;
    if (rel === undefined) continue;
    const result = images.get(rel) ?? (await checkImage(root, rel, known, folders));
    if (typeof result === "string") found.problems.push({ file, line, column: "logo", message: result });
    else if ("missing" in result) {
      found.warnings.push({ file, line, column: "logo", message: `${result.missing} (${path.join(contentDir, rel)}): the library's name is shown instead` });
      delete value.logo;
    } else images.set(rel, result);
  }
}
