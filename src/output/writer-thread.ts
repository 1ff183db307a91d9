import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { threadError } from "../workers/request.ts";
import { linkFiles, writeBatch } from "./batch.ts";
import type { PackedFiles } from "./packed-batch.ts";

/**
 * What the main thread (src/output/writer-pool.ts) asks: write a batch, link unchanged files, or
 * run a job another layer registered (the function `name` of the module at the URL `module`,
 * given `input`: a spreadsheet's, src/exports/sheet-job.ts). This thread knows nothing of them.
 */
export type WriterRequest =
  | { id: number; kind: "write"; staging: string; buffer: ArrayBuffer; files: PackedFiles }
  | { id: number; kind: "link"; staging: string; previousDir: string; rels: string[] }
  | { id: number; kind: "job"; module: string; name: string; input: unknown };

/**
 * The nice value of a writer thread. On two cores the main thread (serialising, the build's
 * critical path) shares them with the writer threads and V8's compiler and collector threads, and
 * at the same priority it waited for a core; the writers work in its gaps instead, within the
 * batches in flight (src/output/batches.ts). A priority within the build, on Linux, where a
 * thread has its own (elsewhere setpriority would lower the whole process); lowering one's own
 * priority needs no privilege. The figures: docs/performance.md#both-cores.
 */
const WRITER_NICE = 5;
if (process.platform === "linux") {
  try {
    setPriority(WRITER_NICE);
  } catch {
    // A system that refuses: the thread runs at the process's priority, as before.
  }
}

const madeDirs = new Set<string>();

async function answer(request: WriterRequest): Promise<object> {
  switch (request.kind) {
    case "write":
      return writeBatch(request.staging, new Uint8Array(request.buffer), request.files, madeDirs);
    case "link":
      return link(request);
    case "job": {
      // Loaded by its first job: a thread that only writes batches never loads a job's module.
      const module = (await import(request.module)) as Record<string, unknown>;
      const run = module[request.name];
      if (typeof run !== "function")
        throw new Error(`bug: ${request.module} exports no function ${request.name}`);
      await (run as (input: unknown) => unknown)(request.input);
      return {};
    }
  }
}

type LinkRequest = Extract<WriterRequest, { kind: "link" }>;

/** Links per turn of the event loop: a batch that arrives meanwhile waits little. */
const LINK_SLICE = 200;
const linkJobs: {
  request: LinkRequest;
  done: number;
  resolve: (reply: object) => void;
  reject: (error: unknown) => void;
}[] = [];

/**
 * Link requests are done a slice at a time, between the batches: the main thread waits for its
 * batches (it serialises only so far ahead of them), and for the links only at the commit. A
 * rebuild sends a hundred thousand links, which would otherwise hold every batch behind them.
 */
function link(request: LinkRequest): Promise<object> {
  return new Promise((resolve, reject) => {
    linkJobs.push({ request, done: 0, resolve, reject });
    if (linkJobs.length === 1) setImmediate(linkSlice);
  });
}

function linkSlice() {
  const job = linkJobs[0];
  if (job === undefined) return;
  const { previousDir, staging, rels } = job.request;
  const end = Math.min(rels.length, job.done + LINK_SLICE);
  try {
    linkFiles(previousDir, staging, rels.slice(job.done, end), madeDirs);
    job.done = end;
    if (end === rels.length) {
      linkJobs.shift();
      job.resolve({});
    }
  } catch (error) {
    linkJobs.shift();
    job.reject(error);
  }
  // Messages (batches) that arrived are handled before the next slice: they come in the poll phase, this runs in the check phase.
  if (linkJobs.length > 0) setImmediate(linkSlice);
}

parentPort!.on("message", (request: WriterRequest) => {
  void answer(request).then(
    (result) => {
      // A batch's buffer goes back to the main thread to be filled again (transferred, not copied).
      if (request.kind === "write")
        parentPort!.postMessage({ id: request.id, result, buffer: request.buffer }, [
          request.buffer,
        ]);
      else parentPort!.postMessage({ id: request.id, ...result });
    },
    (error: unknown) => {
      const reply = { id: request.id, error: threadError(error) };
      if (request.kind === "write")
        parentPort!.postMessage({ ...reply, buffer: request.buffer }, [request.buffer]);
      else parentPort!.postMessage(reply);
    },
  );
});
