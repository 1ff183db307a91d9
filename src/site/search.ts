import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { arch } from "node:os";
import path from "node:path";
import type { FileEntry, OutputTree } from "../output/tree.ts";
import { RequestWorker } from "../workers/request.ts";
import { dependencyManifest } from "../program.ts";
import { threadExecArgv, workerScript } from "../workers/script.ts";
import { keepWarm } from "../util/warm.ts";
import { UNUSED, type IndexFile, type IndexOptions, type SearchDocument } from "./search-index.ts";
import type { SearchRequest } from "./search-worker.ts";
import type { DomainSite } from "./model.ts";
import { SEARCH_DIR } from "../web/urls.ts";
import { codeVersion, type CodeConcern } from "../util/code-version.ts";

/**
 * A domain's search index, built by Pagefind from its work pages' search documents (Pagefind
 * indexes in its own process, on the other core, while Eleventy renders). Result URLs are
 * relative to the site root; Pagefind's script resolves them against the folder above
 * `pagefind/`, so the index works under any base path.
 *
 * Pagefind cannot update an index: one changed document means indexing all of its documents
 * again, much CPU for a large domain. So a large domain's index is split into parts by work id
 * (`partCount`): the primary part in `pagefind/`, the others in `pagefind/part-N/`, listed in
 * `pagefind/parts.json`, which the page's script merges into one search (Pagefind's
 * `mergeIndex`). A part whose documents are those of the previous build (same key) is kept as it
 * is; renaming a title indexes one part again.
 */

// Some CDNs limit the files of a site: above this many pages a domain's index (all its parts) bundles fragments together.
const MAX_FRAGMENTS = 200;
/** About this many documents per part of an index. */
const DOCS_PER_PART = 2000;
/** A search loads every part's entry and metadata first: beyond this, parts only grow. */
const MAX_PARTS = 16;
/** What a merged part needs of its files: not the script and WebAssembly, which the primary part brings. */
const MERGED_UNUSED = /^(pagefind|pagefind-worker)\.js$|^wasm\.[a-z-]+\.pagefind$/;
/** Lists the merged parts, beside the primary part's files. */
export const PARTS_FILE = "parts.json";
export type { IndexFile, SearchDocument };

/** Pagefind's options for one part of `parts`: the fragment bundles are shared among the parts. */
const options = (site: DomainSite, parts: number): IndexOptions => ({
  forceLanguage: site.strings.lang,
  maxFragments: Math.ceil(MAX_FRAGMENTS / parts),
});

/**
 * Parts of the index of a domain with `count` documents: a power of two, about `perPart`
 * documents each. A work's part is its id modulo this count, so adding or removing works moves
 * no other work to another part until the count halves or doubles.
 */
export function partCount(count: number, perPart = DOCS_PER_PART): number {
  let parts = 1;
  while (parts < MAX_PARTS && parts * perPart < count) parts *= 2;
  return parts;
}

export const partOf = (workId: number, parts: number) => workId % parts;

/** Where a part's files go: the primary part in `pagefind/`, the others in `pagefind/part-N/`. */
export const partFolder = (site: DomainSite, part: number) =>
  `${site.folder}${SEARCH_DIR}${part === 0 ? "" : `part-${part}/`}`;

/** The parts merged into the primary one, as `parts.json` lists them (relative to `pagefind/`). */
export const partsFile = (parts: number) =>
  JSON.stringify({ parts: Array.from({ length: parts - 1 }, (_, i) => `part-${i + 1}/`) }) + "\n";

/**
 * What makes a part's files besides its pages' documents (which the pages' keys cover): this
 * indexing code and its worker (src/util/code-version.ts).
 */
export const SEARCH_CODE: CodeConcern = {
  entries: ["src/site/search.ts", "src/site/search-worker.ts"],
};

/**
 * The key of a part of a domain's index: the indexing code's version (SEARCH_CODE), Pagefind's version, the options, the part, and the keys
 * of its work pages in order (a page's key covers everything its search document is rendered
 * from: its data and the template code, src/site/keys.ts).
 */
export function searchKey(
  site: DomainSite,
  works: readonly { key: string }[],
  part = 0,
  parts = 1,
): string {
  const layout = { part, parts, merged: MERGED_UNUSED.source };
  const hash = createHash("md5").update(
    JSON.stringify({
      code: codeVersion(SEARCH_CODE),
      pagefind: pagefindVersion(),
      options: options(site, parts),
      unused: UNUSED.source,
      layout,
    }),
  );
  hash.update(works.map(({ key }) => key).join("\n"));
  return hash.digest("hex");
}

/**
 * Keeps the previous build's files of the part of an index in `folder` when every one of them was
 * written with `key` (a part is written whole, all its files with its key); returns the files
 * kept, 0 for none.
 */
export function reuseIndex(tree: OutputTree, folder: string, key: string): number {
  const previous = previousIndexFiles(tree).get(folder) ?? [];
  if (previous.length === 0 || previous.some(([, entry]) => entry.key !== key)) return 0;
  for (const [rel] of previous)
    if (!tree.reuse(rel, key)) throw new Error(`bug: ${rel} could not be kept`);
  return previous.length;
}

const indexFiles = new WeakMap<OutputTree, Map<string, [string, FileEntry][]>>();

/**
 * The previous version's index files, by the folder of their part (`…/pagefind/` or
 * `…/pagefind/part-N/`); `parts.json` is in none. Grouped once per build: every part asks.
 */
function previousIndexFiles(tree: OutputTree): Map<string, [string, FileEntry][]> {
  let byFolder = indexFiles.get(tree);
  if (byFolder !== undefined) return byFolder;
  byFolder = new Map();
  for (const entry of tree.previousFiles()) {
    const rel = entry[0];
    const at = rel.lastIndexOf(`/${SEARCH_DIR}`);
    if (at === -1) continue;
    const inside = at + 1 + SEARCH_DIR.length;
    if (rel.slice(inside) === PARTS_FILE) continue;
    const folder = rel.slice(0, inside) + (/^part-\d+\//.exec(rel.slice(inside))?.[0] ?? "");
    const files = byFolder.get(folder);
    if (files === undefined) byFolder.set(folder, [entry]);
    else files.push(entry);
  }
  indexFiles.set(tree, byFolder);
  return byFolder;
}

/** Pagefind processes, each run from a worker thread of its own: two parts are indexed side by side. */
export const SEARCH_LANES = 2;

/**
 * Indexes the documents in Pagefind process `lane` (0 or 1); returns the index files in path
 * order, without the unused ones. One Pagefind process indexes on one core, and each process
 * indexes one part after another. Both are run from worker threads (src/site/search-worker.ts):
 * a process run from this thread would be sent its documents and read only when this thread's
 * event loop turns, which it seldom does while Eleventy renders, so its indexing would stall
 * until the site's pages were rendered, and the next site would wait for it.
 */
export async function buildIndex(
  site: DomainSite,
  documents: SearchDocument[],
  parts: number,
  lane = 0,
): Promise<IndexFile[]> {
  return (await searchWorker(lane).request({ options: options(site, parts), documents })).files;
}

/** The worker threads with the Pagefind processes, each started on first use. */
const lanes: (RequestWorker<SearchRequest, { files: IndexFile[] }> | null)[] = Array.from(
  { length: SEARCH_LANES },
  () => null,
);

const searchWorker = (lane: number) =>
  // The compiled module, or from the sources its tsx script (src/workers/script.ts), as the writer threads run.
  (lanes[lane] ??= new RequestWorker(
    workerScript(new URL("./search-worker.ts", import.meta.url)),
    `the search index worker ${lane + 1}`,
    { execArgv: threadExecArgv() },
  ));

/**
 * Starts both Pagefind processes now, before the first part is indexed. Starting a process
 * copies this one's page tables, which grow with its memory: once a domain is planned and
 * rendering, each start held this thread up for a long while; a rename, which indexes one part
 * per domain, paid it for both. A failure here is left to the first real
 * index, which fails with it.
 */
export function startSearch(): void {
  for (let lane = 0; lane < SEARCH_LANES; lane++)
    searchWorker(lane)
      .request({ warm: true })
      .catch(() => {});
}

/**
 * Writes a part of the index into `folder`, each file with the part's key. A merged part (not the
 * primary one) goes without the script and WebAssembly.
 */
export async function writeIndex(
  tree: OutputTree,
  folder: string,
  files: IndexFile[],
  key: string,
  merged: boolean,
): Promise<number> {
  const kept = merged ? files.filter((file) => !MERGED_UNUSED.test(file.path)) : files;
  for (const file of kept) await tree.write(`${folder}${file.path}`, file.content, key);
  return kept.length;
}

/**
 * After a build: stops the Pagefind processes, unless the process builds again (`catalogue dev`,
 * src/util/warm.ts), whose next build then starts indexing at once.
 */
export async function closeSearch(): Promise<void> {
  if (!keepWarm()) await stopSearch();
}

/** Stops the Pagefind processes (they would otherwise keep Node alive); harmless when none runs. */
export async function stopSearch(): Promise<void> {
  const running = lanes.filter((worker) => worker !== null);
  lanes.fill(null);
  for (const worker of running) worker.post({ close: true });
  await Promise.all(running.map((worker) => worker.exited));
}

let version: string | undefined;
/**
 * The versions of Pagefind's package and of the binary that does the indexing: they can differ
 * (package.json pins older binaries for some platforms). A binary named by the environment
 * replaces the installed one: Pagefind reads PAGEFIND_EXTENDED_BINARY_PATH, then
 * PAGEFIND_BINARY_PATH (an empty one counts as unset), and the first set is the one it runs.
 */
function pagefindVersion(): string {
  if (version !== undefined) return version;
  const read = (file: string) => {
    try {
      return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
    } catch {
      return null;
    }
  };
  // Found where Node finds it from this package (hoisted beside it in an install).
  const own = path.join(dependencyManifest("pagefind")?.dir ?? "", "package.json");
  const platform = process.platform === "win32" ? "windows" : process.platform;
  // Resolved from Pagefind's folder, as Pagefind finds it (hoisted or nested).
  const binary = (() => {
    try {
      return createRequire(own).resolve(`@pagefind/${platform}-${arch()}/package.json`);
    } catch {
      return "";
    }
  })();
  return (version = JSON.stringify([
    read(own),
    read(binary),
    process.env.PAGEFIND_EXTENDED_BINARY_PATH || process.env.PAGEFIND_BINARY_PATH || null,
  ]));
}
