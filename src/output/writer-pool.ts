import type { TransferListItem } from "node:worker_threads";
import { RequestWorker, type WithoutId } from "../workers/request.ts";
import { codeModule, threadExecArgv, workerScript } from "../workers/script.ts";
import {
  unpackResult,
  type BatchFiles,
  type BatchResult,
  type PackedResult,
} from "./packed-batch.ts";
import type { WriterRequest } from "./writer-thread.ts";

type Reply = { result?: PackedResult; buffer?: ArrayBuffer };

/**
 * Work another layer gives the writer threads: the thread imports `module` (a `.ts` URL beside
 * the caller, run as the program runs: see codeModule) and calls its export `name` with `input`,
 * structured-cloned, or moved when its buffers (or ports) are listed in `transfer`.
 */
export interface ThreadJob {
  module: URL;
  name: string;
  input: unknown;
  transfer?: TransferListItem[];
  /**
   * The thread it runs in: the first (the default: a spreadsheet), or the last, so that two kinds
   * of long jobs do not queue behind each other while each kind's code is compiled, and its
   * garbage made, in one thread only (a second thread's heap churning with it cost the build's
   * peak: docs/performance.md).
   */
  thread?: "first" | "last";
}

/**
 * Writer threads (src/output/writer-thread.ts), started on first use. Each batch goes to the thread
 * with the fewest batches waiting; its buffer is transferred there and back.
 */
export class WriterPool {
  private readonly workers: RequestWorker<WriterRequest, Reply>[] = [];

  constructor(private readonly threads: number) {}

  /** Hashes and writes a batch; resolves with its entries and the buffer, back for reuse. */
  async write(
    staging: string,
    buffer: ArrayBuffer,
    files: BatchFiles,
  ): Promise<{ result: BatchResult; buffer: ArrayBuffer }> {
    const packed = files.packed();
    const reply = await this.request({ kind: "write", staging, buffer, files: packed }, [
      buffer,
      packed.numbers.buffer as ArrayBuffer,
    ]);
    return { result: unpackResult(files.unkeyed, reply.result!), buffer: reply.buffer! };
  }

  /** Links the previous version's unchanged files into staging, shared among the threads. */
  async link(previousDir: string, staging: string, rels: readonly string[]): Promise<void> {
    const share = Math.ceil(rels.length / this.threads);
    const parts = Array.from({ length: this.threads }, (_, i) =>
      rels.slice(i * share, (i + 1) * share),
    ).filter((part) => part.length > 0);
    await Promise.all(
      parts.map((part) => this.request({ kind: "link", staging, previousDir, rels: part })),
    );
  }

  /** Runs a job in a thread (a spreadsheet: the main thread serialises meanwhile), its `thread`. */
  async run({ module, name, input, transfer = [], thread = "first" }: ThreadJob): Promise<void> {
    if (thread === "last") this.start();
    else if (this.workers.length === 0) this.pick();
    const worker = thread === "last" ? this.workers.at(-1)! : this.workers[0]!;
    await worker.request({ kind: "job", module: codeModule(module).href, name, input }, transfer);
  }

  /**
   * Starts every thread now: a large build calls this before its first batch, so that the
   * threads start on the core the main thread leaves idle while it reads the content and orders
   * the works.
   */
  start(): void {
    while (this.workers.length < this.threads) this.pick();
  }

  private request(
    message: WithoutId<WriterRequest>,
    transfer: TransferListItem[] = [],
  ): Promise<Reply> {
    return this.pick().request(message, transfer);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    this.workers.length = 0;
  }

  private pick(): RequestWorker<WriterRequest, Reply> {
    if (this.workers.length < this.threads) {
      // A small young generation: the threads allocate little besides a batch's file records, and
      // a default-sized one's pages are all touched as allocation cycles through it, memory the
      // build's peak would carry for nothing.
      const worker = new RequestWorker<WriterRequest, Reply>(
        workerScript(new URL("./writer-thread.ts", import.meta.url)),
        "a writer thread",
        { resourceLimits: { maxYoungGenerationSizeMb: 8 }, execArgv: threadExecArgv() },
      );
      this.workers.push(worker);
      return worker;
    }
    return this.workers.reduce((a, b) => (b.pending < a.pending ? b : a));
  }
}
