import { parentPort } from "node:worker_threads";
import { linkFiles, writeBatch, type BatchFile } from "../output/batch.ts";

/** What the main thread (src/workers/writers.ts) asks: write a batch, or link unchanged files. */
export type WriterRequest =
  | { id: number; kind: "write"; staging: string; buffer: ArrayBuffer; files: BatchFile[] }
  | { id: number; kind: "link"; staging: string; previousDir: string; rels: string[] };

const madeDirs = new Set<string>();
parentPort!.on("message", (request: WriterRequest) => {
  let reply: object;
  try {
    if (request.kind === "write") {
      reply = { id: request.id, ...writeBatch(request.staging, new Uint8Array(request.buffer), request.files, madeDirs) };
    } else {
      linkFiles(request.previousDir, request.staging, request.rels, madeDirs);
      reply = { id: request.id, entries: [], bytesWritten: 0 };
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    reply = { id: request.id, error: { message: e.message, stack: e.stack, code: e.code, path: e.path, name: e.name } };
  }
  // A batch's buffer goes back to the main thread to be filled again (transferred, not copied).
  if (request.kind === "write") parentPort!.postMessage({ ...reply, buffer: request.buffer }, [request.buffer]);
  else parentPort!.postMessage(reply);
});
