import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildFixture, generatedContent, outputFiles as readFiles } from "../helpers/catalogue.ts";

export { readFiles };

/** How many files of the build `out` a publish stores (its bookkeeping of inputs stays in the output). */
export async function publishedCount(out: string): Promise<number> {
  return Object.keys(await readFiles(out)).filter((rel) => rel !== "_catalogue/inputs.json").length;
}

/**
 * Two builds of one generated catalogue: `before`, and `after` an edit (one title changed, one
 * work withdrawn), with what changed between them computed from their files' bytes.
 */
export interface Editions {
  before: string;
  after: string;
  /** Paths of `after` that are new or whose bytes differ from `before`. */
  changed: string[];
  /** Paths of `before` that `after` no longer has. */
  removed: string[];
  retitled: { id: number; title: string };
}

export async function makeEditions(root: string, works = 120): Promise<Editions> {
  const content = await generatedContent(root, { works, domains: 2 });
  const before = path.join(root, "before");
  await buildFixture(content, before);
  const beforeFiles = await readFiles(before);
  const ids = Object.keys(beforeFiles)
    .map((rel) => /^domain-1\.example\/_api\/detail\/(\d+)\.json$/.exec(rel)?.[1])
    .filter((id) => id !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const [retitle, withdraw] = [ids[0]!, ids[1]!];
  const title = "Un título nuevo";
  const edited = path.join(root, "content-edited");
  await cp(content, edited, { recursive: true });
  const csv = path.join(edited, "audiovisuals.csv");
  const lines = (await readFile(csv, "utf8")).split("\n").map((line) => {
    const cells = line.split(",");
    if (cells[0] === String(retitle)) cells[1] = title;
    if (cells[0] === String(withdraw)) cells[cells.length - 1] = "0";
    return cells.join(",");
  });
  await writeFile(csv, lines.join("\n"));
  const after = path.join(root, "after");
  await buildFixture(edited, after);
  const afterFiles = await readFiles(after);
  // What the build knows of its inputs stays in the output folder: never published.
  const changed = Object.keys(afterFiles).filter(
    (rel) => beforeFiles[rel]?.md5 !== afterFiles[rel]!.md5 && rel !== "_catalogue/inputs.json",
  );
  const removed = Object.keys(beforeFiles).filter((rel) => afterFiles[rel] === undefined);
  return {
    before,
    after,
    changed: changed.sort(),
    removed: removed.sort(),
    retitled: { id: retitle, title },
  };
}
