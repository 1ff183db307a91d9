import { Worker } from "node:worker_threads";
import type { SheetSpec } from "../exports/xlsx.ts";
import { packFiles, unpackResult, type BatchFile, type BatchResult, type PackedResult } from "../output/batch.ts";
import type { WriterRequest } from "./writer.ts";

type Reply = { id: number; buffer?: ArrayBuffer } & ({ result?: PackedResult } | { error: { message: string; stack?: string; code?: string; path?: string; name: string } });

interface Waiting {
  resolve: (value: { result?: PackedResult; buffer?: ArrayBuffer }) => void;
  reject: (error: unknown) => void;
}

/**
 * Writer threads (src/workers/writer.ts), started on first use. Each batch goes to the thread
 * with the fewest batches waiting; its buffer is transferred there and back.
 */
export class WriterPool {
  private readonly workers: { worker: Worker; waiting: Map<number, Waiting> }[] = [];
  private nextId = 0;

  constructor(private readonly threads: number) {}

  /** Hashes and writes a batch; resolves with its entries and the buffer, back for reuse. */
  async write(staging: string, buffer: ArrayBuffer, files: BatchFile[]): Promise<{ result: BatchResult; buffer: ArrayBuffer }> {
    const packed = packFiles(files);
    const reply = await this.request({ id: this.nextId++, kind: "write", staging, buffer, files: packed }, [buffer, packed.numbers.buffer as ArrayBuffer]);
    return { result: unpackResult(files, reply.result!), buffer: reply.buffer! };
  }

  /** Links the previous version's unchanged files into staging, shared among the threads. */
  async link(previousDir: string, staging: string, rels: readonly string[]): Promise<void> {
    const share = Math.ceil(rels.length / this.threads);
    const parts = Array.from({ length: this.threads }, (_, i) => rels.slice(i * share, (i + 1) * share)).filter((part) => part.length > 0);
    await Promise.all(parts.map((part) => this.request({ id: this.nextId++, kind: "link", staging, previousDir, rels: part })));
  }

  /** Writes one spreadsheet file (exceljs) in a thread: the main thread serialises meanwhile. */
  async sheet(file: string, spec: SheetSpec): Promise<void> {
    await this.request({ id: this.nextId++, kind: "sheet", file, spec });
  }

  private request(message: WriterRequest, transfer: ArrayBuffer[] = []): Promise<{ result?: PackedResult; buffer?: ArrayBuffer }> {
    const slot = this.pick();
    return new Promise((resolve, reject) => {
      slot.waiting.set(message.id, { resolve, reject });
      slot.worker.postMessage(message, transfer);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
    this.workers.length = 0;
  }

  private pick() {
    if (this.workers.length < this.threads) {
      // A small young generation: the threads allocate little besides a batch's file records, and
      // each default-sized one (whose pages are all touched as allocation cycles through it) added
      // about 17 MB to the build's peak memory.
      const slot = { worker: new Worker(new URL("./writer.mjs", import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: 8 } }), waiting: new Map<number, Waiting>() };
      const failAll = (error: unknown) => {
        for (const waiting of slot.waiting.values()) waiting.reject(error);
        slot.waiting.clear();
      };
      slot.worker.on("message", (reply: Reply) => {
        const waiting = slot.waiting.get(reply.id)!;
        slot.waiting.delete(reply.id);
        if ("error" in reply) {
          // The thread's error with what callers look at (code, path) and its stack.
          waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
        } else waiting.resolve({ result: reply.result, buffer: reply.buffer });
      });
      slot.worker.on("error", failAll);
      slot.worker.on("exit", (code) => failAll(new Error(`a writer thread stopped (exit code ${code})`)));
      this.workers.push(slot);
      return slot;
    }
    return this.workers.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
  }
}
