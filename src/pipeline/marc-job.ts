import { closeSync, openSync, writeSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import { deserialize, serialize } from "node:v8";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { ThreadJob } from "../output/writer-pool.ts";
import { marcMapper, type MarcDomain, type MarcStatus, type MarcWork } from "../marc/map.ts";
import { MarcFiles, type MarcSinks } from "../marc/record-files.ts";

/**
 * The MARC files of one export set, written in the output's writer threads (mapping the works
 * is CPU work the main thread would otherwise do between domains) or here. The threads know
 * nothing of MARC: they run the job this module makes, which calls writeMarcJob in the thread.
 */

export interface MarcJobInput {
  /** Where the ISO 2709 file and the MARCXML file go. */
  iso2709: string;
  marcxml: string;
  domain: MarcDomain;
  /**
   * Where the job asks for the works, a part at a time, and gets them (`sendWorks`'s port,
   * moved into the thread with the job).
   */
  works: MessagePort;
  /** How many works `works` gives. */
  records: number;
  status: MarcStatus;
  /**
   * Two more files holding some of the same records, in the same order (the ups among all listed
   * works): `marks` has a 1 for each work they hold. Their bytes are copied, not made again.
   */
  subset?: { iso2709: string; marcxml: string; marks: Uint8Array };
}

/**
 * Works in a part: one serialisation each way for many works (one a work cost a call each), few
 * enough that a part's objects are little to hold.
 */
const PART_WORKS = 100;

/** Parts the job asks for ahead of the one it maps: it seldom waits for the main thread's turn. */
const PARTS_AHEAD = 4;

/** The works as sendWorks's side of the channel hands them to a job: its port, and when it is done. */
export interface SentWorks {
  /** The job's end of the channel (MarcJobInput's `works`). */
  port: MessagePort;
  /**
   * Settles when the job has closed its end (it has every work, or it stopped), or rejects with
   * what failed here making a part (the job then fails, its works cut short).
   */
  done: Promise<void>;
  /** Closes this end: for when the job cannot have run (it closes the channel otherwise). */
  close(): void;
}

/**
 * Hands `works` to a job a part at a time, each part made (serialised by V8) when the job asks
 * for it and moved to it. A set's works sent at once, as buffers moved into the thread, were held
 * there until a full collection, which a writer thread seldom makes: megabytes a set, which the
 * build's peak carried (docs/performance.md). V8's serialiser, not JSON: the main thread, which
 * the build waits for, makes them in less time.
 */
export function sendWorks(works: Iterable<MarcWork>): SentWorks {
  const { port1: here, port2: job } = new MessageChannel();
  const source = works[Symbol.iterator]();
  const done = new Promise<void>((resolve, reject) => {
    here.on("message", () => {
      try {
        const part = nextPart(source);
        // After the last part, null for each request still coming: the job stops at the first.
        if (part === null) here.postMessage(null);
        else here.postMessage(part, [part.buffer as ArrayBuffer]);
      } catch (error) {
        here.close();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    here.on("close", () => resolve());
  });
  return { port: job, done, close: () => here.close() };
}

function nextPart(source: Iterator<MarcWork>): Uint8Array | null {
  const part: MarcWork[] = [];
  while (part.length < PART_WORKS) {
    const next = source.next();
    if (next.done) break;
    part.push(next.value);
  }
  return part.length === 0 ? null : serialize(part);
}

/**
 * The works the port brings, a part at a time, asked for PARTS_AHEAD parts ahead; the port is
 * closed when they end or the caller stops.
 */
export async function* receiveWorks(port: MessagePort): AsyncGenerator<MarcWork[]> {
  const arrived: (Uint8Array | null)[] = [];
  let closed = false;
  let wake: (() => void) | null = null;
  port.on("message", (part: Uint8Array | null) => {
    arrived.push(part);
    wake?.();
  });
  port.on("close", () => {
    closed = true;
    wake?.();
  });
  try {
    for (let i = 0; i < PARTS_AHEAD; i++) port.postMessage("next");
    for (;;) {
      while (arrived.length === 0) {
        if (closed) throw new Error("the works of a MARC job stopped before their end");
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const part = arrived.shift()!;
      if (part === null) return;
      port.postMessage("next");
      yield deserialize(part) as MarcWork[];
    }
  } finally {
    port.close();
  }
}

/** The job that writes both files of `input` (its port moved into the thread). */
export const marcJob = (input: MarcJobInput): ThreadJob => ({
  module: new URL(import.meta.url),
  name: writeMarcJob.name,
  input,
  // Beside the spreadsheets (the first thread's), not behind them.
  thread: "last",
  transfer: [input.works],
});

/** The last job given to this thread (or process): the next one starts when it has ended. */
let lastJob: Promise<unknown> = Promise.resolve();

/**
 * Writes both files of the same records (writeMarcFilesNow), after the jobs given before this
 * one have ended, failed or not: one job at a time, in the order given. Run side by side, the
 * jobs of every domain in flight ended together, at the end of the build, while the next domain's
 * API waited for the first domain's exports (at most two domains' exports are in flight:
 * src/pipeline/stages.ts), the main thread idle; in order, the first domain's are done first.
 */
export function writeMarcJob(input: MarcJobInput): Promise<void> {
  const job = lastJob.then(() => writeMarcFilesNow(input));
  lastJob = job.catch(() => {});
  return job;
}

/**
 * Writes both files of the same records as the works arrive, chunk by chunk: memory holds a part
 * of the works, a record and a chunk of each file. The event loop turns after each part, so that
 * in a writer thread the batches of API files that arrive meanwhile are written between the
 * parts instead of waiting for the set.
 */
async function writeMarcFilesNow({
  iso2709,
  marcxml,
  domain,
  works,
  status,
  subset,
}: MarcJobInput): Promise<void> {
  const paths = [iso2709, marcxml, ...(subset ? [subset.iso2709, subset.marcxml] : [])];
  const files: number[] = [];
  try {
    for (const file of paths) files.push(openSync(file, "w"));
    const [iso, xml, subsetIso, subsetXml] = files;
    const sinks = (isoFile: number, xmlFile: number): MarcSinks => ({
      iso2709: (chunk) => writeAll(isoFile, chunk),
      marcxml: (chunk) => writeAll(xmlFile, chunk),
    });
    const marks = subset?.marks;
    // Each chunk is written before the next is made: their buffers are reused.
    const records = new MarcFiles(sinks(iso!, xml!), {
      reuse: true,
      ...(marks && {
        subset: { sinks: sinks(subsetIso!, subsetXml!), holds: (index) => marks[index] === 1 },
      }),
    });
    const toRecord = marcMapper(domain);
    for await (const part of receiveWorks(works)) {
      for (const work of part) records.add(toRecord(work, status));
      await nextTurn();
    }
    records.end();
  } finally {
    works.close(); // also when the job stopped before it asked for the works
    for (const fd of files) closeSync(fd);
  }
}

function writeAll(fd: number, chunk: Uint8Array): void {
  for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done, chunk.length - done);
}
