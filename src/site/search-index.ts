import type * as pagefind from "pagefind";

/**
 * Indexing one part of a search index with a Pagefind module (its process): what each search
 * worker thread (search-worker.ts) runs, on the requests of search.ts.
 */

// Indexing requests in flight per index: enough to keep the Pagefind process busy.
const IN_FLIGHT = 64;
// Only the search API is used (assets/search.js draws the results): Pagefind's ready-made UIs
// and the highlighter are left out of the output.
export const UNUSED =
  /(^|\/)pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$|^wasm\.unknown\.pagefind$/;

export interface SearchDocument {
  /** Relative to the site root. */
  url: string;
  content: string;
}

export type IndexFile = { path: string; content: Uint8Array };

/** Pagefind's options for one part of an index (search.ts). */
export interface IndexOptions {
  forceLanguage: string;
  maxFragments: number;
}

/** Indexes the documents with this Pagefind module (its process). */
export async function indexDocuments(
  engine: typeof pagefind,
  indexOptions: IndexOptions,
  documents: SearchDocument[],
): Promise<IndexFile[]> {
  const { index, errors } = await engine.createIndex(indexOptions);
  if (index === undefined)
    throw new Error(`Pagefind could not create an index: ${errors.join("; ")}`);
  const pending = new Set<Promise<void>>();
  let failure: unknown = null;
  for (const { url, content } of documents) {
    if (failure !== null) break;
    const job = index.addHTMLFile({ url, content }).then(({ errors }) => {
      if (errors.length > 0)
        throw new Error(`Pagefind could not index ${url}: ${errors.join("; ")}`);
    });
    const tracked = job
      .catch((error) => void (failure ??= error))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
  }
  await Promise.all(pending);
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a caught error, rethrown as it came
  if (failure !== null) throw failure;
  const files = await index.getFiles();
  if (files.errors.length > 0)
    throw new Error(`Pagefind could not build the index: ${files.errors.join("; ")}`);
  await index.deleteIndex();
  return files.files
    .filter((file) => !UNUSED.test(file.path))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}
