import path from "node:path";
import type { Problem } from "../errors.ts";
import { mapLimit } from "../util/concurrency.ts";
import type { ToDraw } from "./missing-images.ts";
import {
  checkImage,
  type ImageMissing,
  type ImageSource,
  type ImageHeaderCache,
} from "./source-images.ts";
import type { Audiovisual, Director, Domain } from "./schema.ts";

/**
 * The images the rows name (covers, photos, logos), each path checked once: a bad one is a
 * problem at every cell that names it; a missing cover or photo one warning per file that names
 * it (at its first line, listing the others) and a stand-in drawn from each row that names it, a
 * missing logo a warning and the library's name instead.
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

/**
 * The image of a row whose own is missing: a path no cell can name (the content's paths are
 * relative, an absolute one is refused), one per row, so that rows sharing a missing path each
 * get a stand-in drawn from their own title and director.
 */
const standIn = (use: ImageUse) => `/drawn/${use.kind}-${use.row.id}`;

export async function checkImages(
  contentDir: string,
  root: string,
  known: ImageHeaderCache | undefined,
  uses: ImageUse[],
  toDraw: (use: ImageUse, rel: string) => ToDraw,
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
  // The rows that name each missing image, by file and path, in line order.
  const lacking = new Map<string, ImageUse[]>();
  for (const use of uses) {
    const failure = failures.get(use.rel);
    if (failure === undefined) continue;
    const { file, line, column } = use;
    if (typeof failure === "string") {
      found.problems.push({ file, line, column, message: failure });
      continue;
    }
    const key = `${file}\0${use.rel}`;
    const rows = lacking.get(key);
    if (rows === undefined) lacking.set(key, [use]);
    else rows.push(use);
    const rel = standIn(use);
    found.missing.push(toDraw(use, rel));
    // The row now names its stand-in, which the build draws (loadCatalogue) under that path.
    if (use.kind === "cover") (use.row as Audiovisual).cover = rel;
    else (use.row as Director).photo = rel;
  }
  for (const rows of lacking.values()) {
    const [first] = rows as [ImageUse, ...ImageUse[]];
    const failure = failures.get(first.rel) as ImageMissing;
    // Where the path leads from the content folder as the user named it, and a near miss in case.
    const where = path.join(contentDir, first.rel);
    const otherCase =
      failure.otherCase === null
        ? ""
        : `; ${JSON.stringify(failure.otherCase)} exists, in another case`;
    const others = rows.length === 1 ? "" : `, named on lines ${lineList(rows.map((u) => u.line))}`;
    const stand = first.kind === "cover" ? "cover" : "photo";
    found.warnings.push({
      file: first.file,
      line: first.line,
      column: first.column,
      message: `${failure.missing} (${where}${otherCase})${others}`,
      otherwise:
        rows.length === 1
          ? `a ${stand} drawn from the row stands in`
          : `a ${stand} drawn from each row stands in`,
    });
  }
  return images;
}

/** Lines as ranges, `2-18, 20, 31-32`, the first 20 ranges and a count of the rest. */
function lineList(lines: readonly number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j++;
    ranges.push(j === i ? String(lines[i]) : `${lines[i]}-${lines[j]}`);
    i = j + 1;
  }
  return ranges.length <= 20
    ? ranges.join(", ")
    : `${ranges.slice(0, 20).join(", ")} and ${ranges.length - 20} more`;
}

/**
 * The domains' logos (domains.csv `logo`), processed as covers are. A missing one is a warning, as
 * a missing cover is, and the site shows the library's name instead (a drawn stand-in of a logo
 * would stand for nothing).
 */
export async function checkLogos(
  contentDir: string,
  root: string,
  known: ImageHeaderCache | undefined,
  domains: { line: number; value: Domain }[],
  file: string,
  images: Map<string, ImageSource>,
  found: { problems: Problem[]; warnings: Problem[] },
): Promise<void> {
  const folders = new Map<string, string>();
  // A missing logo: one warning, at the first domain that names it, listing the others' lines.
  const lacking = new Map<string, { missing: string; lines: number[] }>();
  for (const { line, value } of domains) {
    const rel = value.logo;
    if (rel === undefined) continue;
    const result = images.get(rel) ?? (await checkImage(root, rel, known, folders));
    if (typeof result === "string")
      found.problems.push({ file, line, column: "logo", message: result });
    else if ("missing" in result) {
      const seen = lacking.get(rel);
      if (seen === undefined) lacking.set(rel, { missing: result.missing, lines: [line] });
      else seen.lines.push(line);
      delete value.logo;
    } else images.set(rel, result);
  }
  for (const [rel, { missing, lines }] of lacking) {
    const others = lines.length === 1 ? "" : `, named on lines ${lineList(lines)}`;
    found.warnings.push({
      file,
      line: lines[0]!,
      column: "logo",
      message: `${missing} (${path.join(contentDir, rel)})${others}`,
      otherwise: "the library's name is shown instead",
    });
  }
}
