import { parentPort, workerData } from "node:worker_threads";
import * as pagefind from "pagefind";
import { indexDocuments, type IndexOptions, type SearchDocument } from "./search.ts";

/** A domain's search index built by this thread's own Pagefind process (see buildIndex). */
const { options, documents } = workerData as { options: IndexOptions; documents: SearchDocument[] };
try {
  const files = await indexDocuments(pagefind, options, documents);
  // Copied, not transferred: Pagefind's arrays may share one buffer.
  parentPort!.postMessage({ files });
} catch (error) {
  const e = error as Error;
  parentPort!.postMessage({ error: { message: e.message, stack: e.stack, name: e.name } });
} finally {
  await pagefind.close();
}
