// Generates the placeholder images of the bundled sample catalogue.
//
// The sample works are real public-domain films, but we do not ship or download
// any stills or posters: every cover (content/covers/<slug>.jpg, 400x600) and
// director photo (content/photos/<slug>.jpg, 300x300) is drawn here from the
// CSV data as an SVG and rendered with sharp. Colours come from a hash of the
// slug, so the same CSV always yields the same bytes (on the same sharp/libvips
// build and fonts). Re-run after editing content/*.csv:
//
//   npx tsx scripts/make-covers.ts
// (The drawing is src/draw/draw.ts, which `catalogue init` uses too.)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { coverSvg, photoSvg, renderJpeg } from "../src/draw/draw.ts";

const CONTENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "content");
type Row = Record<string, string>;

function readCsv(file: string): Row[] {
  return parse<Row>(readFileSync(path.join(CONTENT, file), "utf8"), {
    columns: true,
    skip_empty_lines: true,
    bom: true,
  });
}

/** Resolves an image path from the CSV, refusing anything outside content/. */
function target(rel: string): string {
  const abs = path.resolve(CONTENT, rel);
  if (path.isAbsolute(rel) || !abs.startsWith(CONTENT + path.sep)) {
    throw new Error(`image path escapes content/: ${rel}`);
  }
  return abs;
}

async function render(svg: string, file: string): Promise<number> {
  const buf = await renderJpeg(svg);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, buf);
  return buf.length;
}

async function main(): Promise<void> {
  const directors = readCsv("directors.csv");
  const works = readCsv("audiovisuals.csv");
  const names = new Map(directors.map((d) => [d.id ?? "", (d.name ?? "").trim()]));

  let covers = 0;
  let photos = 0;
  let largest = 0;
  for (const w of works) {
    if (!w.cover || !w.slug) throw new Error(`work ${w.id}: cover and slug are required`);
    const director = w.director_id ? names.get(w.director_id) : undefined;
    if (w.director_id && director === undefined)
      throw new Error(`work ${w.id}: unknown director ${w.director_id}`);
    largest = Math.max(largest, await render(coverSvg(w, director ?? ""), target(w.cover)));
    covers++;
  }
  for (const d of directors) {
    if (!d.photo) continue;
    largest = Math.max(largest, await render(photoSvg(d), target(d.photo)));
    photos++;
  }
  console.log(
    `wrote ${covers} covers and ${photos} photos (largest ${(largest / 1024).toFixed(1)} KB)`,
  );
}

await main();
