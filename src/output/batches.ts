import { linkFiles, writeBatch } from "./batch.ts";
import { BatchFiles, unpackResult, type BatchResult, type Identity } from "./packed-batch.ts";
import type { FilePart, SharedBytes } from "./sink.ts";
import { writeFailure } from "./write-failure.ts";
import { WriterPool, type ThreadJob } from "./writer-pool.ts";

/**
 * 1 MB: a few dozen listing pages, so a batch's round trip to a thread is small against its
 * work, and the batches in flight stay few megabytes. Memory a process touches for the first time
 * costs a page fault per 4 KB, which virtual machines make dear, so larger batches cost more than
 * they save (docs/performance.md#memory-one-domain-at-a-time).
 */
export const BATCH_BYTES = 1 << 20;
/** Below this many unchanged files, linking them is quicker than starting threads. */
const LINKS_FOR_THREADS = 5000;
/**
 * Batches in flight per writer thread (12 MB). The writer threads run at a lower priority than
 * this one (src/output/writer-thread.ts) and catch up in its gaps: with room for a dozen batches
 * each, serialising rarely waits for them; with a couple, this thread would wait at every gap
 * they left (docs/performance.md#both-cores).
 */
const IN_FLIGHT_PER_THREAD = 12;

interface Batch {
  buffer: Buffer;
  used: number;
  files: BatchFiles;
  /** Where each shared part already copied into this batch starts. */
  shared: Map<SharedBytes, number>;
}

/**
 * The staging folder's way to the disk: files packed one after the other into a batch buffer,
 * so a page costs no allocation of its own, and the writer threads. A full batch is handed to a
 * writer thread (transferred, not copied), which hashes and writes its files while this thread
 * serialises the next pages: MD5 and the open/write/close calls are half of a build's work. A
 * build whose output fits in one batch never starts a thread. Each batch's result goes to
 * `merge`; the first failure is kept and thrown by the next call that checks (`throwFailure`).
 */
export class Batches {
  private batch: Batch;
  private readonly spare: Buffer[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /**
   * Link requests in the writer threads. Apart from the batches: flush() and the backpressure of
   * serialising do not wait for them (a rebuild links a hundred thousand kept files, which only
   * the commit needs), and the threads do them between batches (src/output/writer-thread.ts).
   */
  private readonly linking = new Set<Promise<void>>();
  private writers: WriterPool | null = null;
  private failure: unknown = null;

  constructor(
    private readonly staging: string,
    private readonly batchBytes: number,
    private readonly threads: number,
    /** The folders made in staging so far (by this thread). */
    private readonly madeDirs: Set<string>,
    private readonly merge: (result: BatchResult) => void,
  ) {
    this.batch = this.emptyBatch();
  }

  /** Whether `parts` fit in the current batch without a wait (nearly always). */
  fits(parts: readonly FilePart[]): boolean {
    const room = this.batch.buffer.length - this.batch.used;
    // UTF-8 takes at most 3 bytes per UTF-16 unit; only a file near the end of the room is measured.
    return this.room(parts, utf8Bound) <= room || this.room(parts, utf8Bytes) <= room;
  }

  /** `pack` once batches are handed over until `parts` fit; resolves with the file's size. */
  async packAfterRoom(
    rel: string,
    parts: readonly FilePart[],
    key: string | undefined,
    previous: Identity | undefined,
    inStaging: Identity | undefined,
  ): Promise<number> {
    // Stages write concurrently (the API and the HTML pages): the room is checked again after
    // every wait, since another stage may have filled the new batch meanwhile, and the file is
    // packed with no wait between the last check and the copy.
    for (;;) {
      const room = this.batch.buffer.length - this.batch.used;
      const exact = this.room(parts, utf8Bytes);
      if (exact <= room) break;
      if (this.batch.files.count > 0) {
        await this.dispatch();
        continue;
      }
      // A file larger than a batch gets a batch of its own size.
      this.batch.buffer = Buffer.from(new ArrayBuffer(exact));
      break;
    }
    return this.pack(rel, parts, key, previous, inStaging);
  }

  /**
   * Copies a file's parts into the batch, which has room for them, with what its writer compares
   * it with (the previous version's and the recycled one's file at `rel`); returns its size.
   */
  pack(
    rel: string,
    parts: readonly FilePart[],
    key: string | undefined,
    previous: Identity | undefined,
    inStaging: Identity | undefined,
  ): number {
    const batch = this.batch;
    const { buffer, files } = batch;
    files.begin(rel, key, previous, inStaging);
    let size = 0;
    for (const part of parts) {
      const start = batch.used;
      if (typeof part === "string") batch.used += buffer.write(part, start);
      else if (part instanceof Uint8Array) {
        buffer.set(part, start);
        batch.used += part.length;
      } else {
        const at = batch.shared.get(part);
        if (at !== undefined) {
          files.segment(at, part.size);
          size += part.size;
          continue;
        }
        for (const piece of part.parts) {
          buffer.set(piece, batch.used);
          batch.used += piece.length;
        }
        batch.shared.set(part, start);
      }
      files.segment(start, batch.used - start);
      size += batch.used - start;
    }
    files.end(size);
    return size;
  }

  /** Bytes the parts take in the batch: shared bytes already in it take none. */
  private room(parts: readonly FilePart[], textBytes: (text: string) => number): number {
    let bytes = 0;
    for (const part of parts) {
      if (typeof part === "string") bytes += textBytes(part);
      else if (part instanceof Uint8Array) bytes += part.length;
      else if (!this.batch.shared.has(part)) bytes += part.size;
    }
    return bytes;
  }

  /** Writes what is still packed and waits for the writer threads; throws the first write error. */
  async flush(): Promise<void> {
    if (this.batch.files.count > 0) {
      if (this.writers === null) {
        // Small enough to have filled no batch: written here, no thread started.
        try {
          const { files } = this.batch;
          this.merge(
            unpackResult(
              files.unkeyed,
              writeBatch(this.staging, this.batch.buffer, files.packed(), this.madeDirs),
            ),
          );
        } catch (error) {
          this.failure ??= error;
        }
        this.batch = this.emptyBatch();
      } else await this.dispatch();
    }
    await Promise.all(this.inFlight);
    this.throwFailure();
  }

  /**
   * Hard-links the previous version's files at `rels` into staging: in the writer threads when
   * there are many (a rebuild links tens of thousands of unchanged files), else here.
   */
  async linkNow(previousDir: string, rels: readonly string[]): Promise<void> {
    try {
      if (rels.length < LINKS_FOR_THREADS)
        linkFiles(previousDir, this.staging, rels, this.madeDirs);
      else
        await (this.writers ??= new WriterPool(this.threads)).link(previousDir, this.staging, rels);
    } catch (error) {
      throw writeFailure(error, this.staging);
    }
  }

  /** Hands links to the running writer threads, which do them between batches; `settle` waits for them. */
  linkInThreads(previousDir: string, rels: readonly string[]): void {
    if (this.writers === null)
      throw new Error("bug: links handed to writer threads that are not running");
    this.track(this.writers.link(previousDir, this.staging, rels), this.linking);
  }

  /** Runs a job in a writer thread (a spreadsheet: CPU work the main thread would otherwise do between domains). */
  async run(job: ThreadJob): Promise<void> {
    await (this.writers ??= new WriterPool(this.threads)).run(job);
  }

  /** Starts the writer threads before the first batch fills (a build that knows it is large). */
  startThreads(): void {
    if (this.writers === null) {
      this.writers = new WriterPool(this.threads);
      this.writers.start();
    }
  }

  /** Whether the writer threads are running (a build large enough to fill a batch). */
  get threadsStarted(): boolean {
    return this.writers !== null;
  }

  /** Waits for everything handed over, links included (the commit); throws the first failure. */
  async settle(): Promise<void> {
    await this.flush();
    await Promise.all(this.linking);
    this.throwFailure();
  }

  /** Stops the writer threads (after settle, or when the build is abandoned). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight, ...this.linking]);
    await this.writers?.close();
    this.writers = null;
  }

  throwFailure(): void {
    if (this.failure !== null) throw writeFailure(this.failure, this.staging);
  }

  /** Waits for this work with the batches or links (`into`); its failure is the build's. */
  private track(work: Promise<unknown>, into = this.inFlight) {
    const done = work.then(
      () => {},
      (error: unknown) => void (this.failure ??= error),
    );
    into.add(done);
    void done.finally(() => into.delete(done));
  }

  private async dispatch(): Promise<void> {
    const batch = this.batch;
    this.batch = this.emptyBatch();
    this.writers ??= new WriterPool(this.threads);
    this.track(
      this.writers
        .write(this.staging, batch.buffer.buffer as ArrayBuffer, batch.files)
        .then(({ result, buffer }) => {
          this.merge(result);
          if (buffer.byteLength === this.batchBytes) this.spare.push(Buffer.from(buffer));
        }),
    );
    // Backpressure: serialising never runs far ahead of writing.
    while (this.inFlight.size >= this.threads * IN_FLIGHT_PER_THREAD)
      await Promise.race(this.inFlight);
  }

  private emptyBatch(): Batch {
    return {
      buffer: this.spare.pop() ?? Buffer.from(new ArrayBuffer(this.batchBytes)),
      used: 0,
      files: new BatchFiles(),
      shared: new Map(),
    };
  }
}

const utf8Bound = (text: string) => text.length * 3;
const utf8Bytes = (text: string) => Buffer.byteLength(text);
