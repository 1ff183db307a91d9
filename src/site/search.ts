import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { arch } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import * as pagefind from "pagefind";
import type { OutputTree } from "../output/tree.ts";
import type { DomainSite } from "./model.ts";
import { SEARCH_DIR } from "./urls.ts";

/**
 * One Pagefind index per domain, built from its work pages' search documents (Pagefind indexes in
 * its own process, on the other core, while Eleventy renders). Result URLs are relative to the
 * site root; Pagefind's script resolves them against the folder above `pagefind/`, so the index
 * works under any base path.
 *
 * Pagefind cannot update an index: any changed document means indexing the whole domain again.
 * So when a domain's documents are those of the previous build (same key) its index files are
 * kept as they are, and otherwise it is rebuilt whole.
 */

// Some CDNs limit the files of a site: above this many pages Pagefind bundles fragments together.
const MAX_FRAGMENTS = 200;
// Indexing requests in flight per index: enough to keep the Pagefind process busy.
const IN_FLIGHT = 64;
// Only the search API is used (assets/search.js draws the results): Pagefind's ready-made UIs
// and the highlighter are left out of the output.
const UNUSED = /(^|\/)pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$|^wasm\.unknown\.pagefind$/;

export interface SearchDocument {
  /** Relative to the site root. */
  url: string;
  content: string;
}

export type IndexFile = { path: string; content: Uint8Array };

const options = (site: DomainSite) => ({ forceLanguage: site.strings.lang, maxFragments: MAX_FRAGMENTS });

/** The key of a domain's index: Pagefind's version, the options, and every document in order. */
export function searchKey(site: DomainSite, documents: SearchDocument[]): string {
  const hash = createHash("md5").update(JSON.stringify({ pagefind: pagefindVersion(), options: options(site), unused: UNUSED.source }));
  for (const { url, content } of documents) hash.update(`\0${url}\0${content}`);
  return hash.digest("hex");
}

/**
 * Keeps the previous build's index of the domain when every file of it was written with `key`
 * (an index is written whole, all its files with its key); returns the files kept, 0 for none.
 */
export function reuseIndex(tree: OutputTree, site: DomainSite, key: string): number {
  const folder = site.folder + SEARCH_DIR;
  const previous = [...tree.previousFiles()].filter(([rel]) => rel.startsWith(folder));
  if (previous.length === 0 || previous.some(([, entry]) => entry.key !== key)) return 0;
  for (const [rel] of previous) if (!tree.reuse(rel, key)) throw new Error(`bug: ${rel} could not be kept`);
  return previous.length;
}

/**
 * Indexes the documents; returns the index files in path order, without the unused ones.
 * One Pagefind process indexes on one core, so every other domain is indexed by a second
 * process, run from a worker thread (src/site/search-worker.ts): two domains that changed are
 * indexed side by side.
 */
export function buildIndex(site: DomainSite, documents: SearchDocument[], second = false): Promise<IndexFile[]> {
  return second ? indexInWorker(options(site), documents) : indexDocuments(pagefind, options(site), documents);
}

export type IndexOptions = ReturnType<typeof options>;

/** Indexes the documents with this Pagefind module (its process). */
export async function indexDocuments(engine: typeof pagefind, indexOptions: IndexOptions, documents: SearchDocument[]): Promise<IndexFile[]> {
  const { index, errors } = await engine.createIndex(indexOptions);
  if (index === undefined) throw new Error(`Pagefind could not create an index: ${errors.join("; ")}`);
  const pending = new Set<Promise<void>>();
  let failure: unknown = null;
  for (const { url, content } of documents) {
    if (failure !== null) break;
    const job = index.addHTMLFile({ url, content }).then(({ errors }) => {
      if (errors.length > 0) throw new Error(`Pagefind could not index ${url}: ${errors.join("; ")}`);
    });
    const tracked = job.catch((error) => void (failure ??= error)).finally(() => pending.delete(tracked));
    pending.add(tracked);
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
  }
  await Promise.all(pending);
  if (failure !== null) throw failure;
  const files = await index.getFiles();
  if (files.errors.length > 0) throw new Error(`Pagefind could not build the index: ${files.errors.join("; ")}`);
  await index.deleteIndex();
  return files.files.filter((file) => !UNUSED.test(file.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Indexes in a worker thread, which has a Pagefind module, and so a Pagefind process, of its own. */
function indexInWorker(indexOptions: IndexOptions, documents: SearchDocument[]): Promise<IndexFile[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./search-worker.mjs", import.meta.url), { workerData: { options: indexOptions, documents } });
    let settled = false;
    worker.once("message", (reply: { files: IndexFile[] } | { error: { message: string; stack?: string } }) => {
      settled = true;
      if ("error" in reply) reject(Object.assign(new Error(reply.error.message), reply.error));
      else resolve(reply.files);
    });
    worker.once("error", (error) => ((settled = true), reject(error)));
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the search index worker stopped (exit code ${code})`));
    });
  });
}

/** Writes the index under `<site root>/pagefind/`, each file with the index's key. */
export async function writeIndex(tree: OutputTree, site: DomainSite, files: IndexFile[], key: string): Promise<void> {
  for (const file of files) await tree.write(`${site.folder}${SEARCH_DIR}${file.path}`, file.content, key);
}

/** Stops the Pagefind process (it would otherwise keep Node alive); harmless when none runs. */
export const closeSearch = () => pagefind.close();

let version: string | undefined;
/**
 * The versions of Pagefind's package and of the binary that does the indexing: they can differ
 * (package.json pins older binaries for some platforms).
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
  const own = path.resolve(import.meta.dirname, "../../node_modules/pagefind/package.json");
  const platform = process.platform === "win32" ? "windows" : process.platform;
  // Resolved from Pagefind's folder, as Pagefind finds it (hoisted or nested).
  const binary = (() => {
    try {
      return createRequire(own).resolve(`@pagefind/${platform}-${arch()}/package.json`);
    } catch {
      return "";
    }
  })();
  return (version = JSON.stringify([read(own), read(binary), process.env.PAGEFIND_BINARY_PATH ?? null]));
}
