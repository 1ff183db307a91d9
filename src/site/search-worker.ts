import { parentPort } from "node:worker_threads";
import * as pagefind from "pagefind";
import { indexDocuments, type IndexOptions, type SearchDocument } from "./search.ts";

/**
 * Builds search indexes with this thread's own Pagefind process (see buildIndex), one request
 * after another, until told to close.
 */
type Request = { id: number; options: IndexOptions; documents: SearchDocument[] } | { close: true };

let queue = Promise.resolve();
parentPort!.on("message", (request: Request) => {
  queue = queue.then(async () => {
    if ("close" in request) {
      await pagefind.close();
      parentPort!.close();
      return;
    }
    try {
      const files = await indexDocuments(pagefind, request.options, request.documents);
      // Copied, not transferred: Pagefind's arrays may share one buffer.
      parentPort!.postMessage({ id: request.id, files });
    } catch (error) {
      const e = error as Error;
      parentPort!.postMessage({ id: request.id, error: { message: e.message, stack: e.stack, name: e.name } });
    }
  });
});
