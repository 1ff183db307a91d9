import { parentPort } from "node:worker_threads";
import * as pagefind from "pagefind";
import { threadError } from "../workers/request.ts";
import { indexDocuments, type IndexOptions, type SearchDocument } from "./search-index.ts";

/**
 * Builds search indexes with this thread's own Pagefind process (see buildIndex), one request
 * after another, until told to close.
 */
/** What the main thread (buildIndex in src/site/search.ts) asks. */
export type SearchRequest =
  { id: number; options: IndexOptions; documents: SearchDocument[] } | { id: number; warm: true };

let queue = Promise.resolve();
parentPort!.on("message", (request: SearchRequest | { close: true }) => {
  queue = queue.then(async () => {
    if ("close" in request) {
      await pagefind.close();
      parentPort!.close();
      return;
    }
    try {
      if ("warm" in request) {
        // Starts this thread's Pagefind process (startSearch in src/site/search.ts).
        const { index } = await pagefind.createIndex({});
        await index?.deleteIndex();
        parentPort!.postMessage({ id: request.id, files: [] });
        return;
      }
      const files = await indexDocuments(pagefind, request.options, request.documents);
      // Copied, not transferred: Pagefind's arrays may share one buffer.
      parentPort!.postMessage({ id: request.id, files });
    } catch (error) {
      parentPort!.postMessage({ id: request.id, error: threadError(error) });
    }
  });
});
