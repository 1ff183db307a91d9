import { closeSync, openSync, writeSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import { deserialize, serialize } from "node:v8";
import type { ThreadJob } from "../output/writer-pool.ts";
import { marcRecords, type MarcDomain, type MarcStatus, type MarcWork } from "../marc/map.ts";
import { marcFileChunks } from "../marc/record-files.ts";

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
   * The works, in parts of at most PART_WORKS works, each serialised by V8 (`marcWorkParts`):
   * moved into the thread, not copied, and read a part at a time there, each part let go once
   * read, so that neither thread holds a set's works as objects (a structured clone of thousands
   * of works cost the main thread their copy, and the writer thread a heap of them).
   */
  works: (Uint8Array | undefined)[];
  /** How many works `works` holds. */
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

/**
 * Works as MarcJobInput's `works`. V8's serialiser, not JSON: the main thread, which the build
 * waits for, makes them in less time (docs/performance.md); each part is a
 * buffer of its own, so it can be moved.
 */
export function marcWorkParts(works: Iterable<MarcWork>): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let part: MarcWork[] = [];
  for (const work of works) {
    part.push(work);
    if (part.length === PART_WORKS) {
      parts.push(serialize(part));
      part = [];
    }
  }
  if (part.length > 0) parts.push(serialize(part));
  return parts;
}

/** The works of `parts`, one at a time; each part is dropped from the list once read. */
export function* readWorkParts(parts: (Uint8Array | undefined)[]): Generator<MarcWork> {
  for (let i = 0; i < parts.length; i++) {
    const works = deserialize(parts[i]!) as MarcWork[];
    parts[i] = undefined;
    yield* works;
  }
}

/** The job that writes both files of `input` (its works' buffer moved into the thread). */
export const marcJob = (input: MarcJobInput): ThreadJob => ({
  module: new URL(import.meta.url),
  name: writeMarcJob.name,
  input,
  // Beside the spreadsheets (the first thread's), not behind them.
  thread: "last",
  transfer: input.works.flatMap((part) => (part === undefined ? [] : [part.buffer as ArrayBuffer])),
});

/**
 * Writes both files of the same records, chunk by chunk: memory holds a record and a chunk of
 * each. The event loop turns after each chunk, so that in a writer thread the batches of API
 * files that arrive meanwhile are written between the chunks instead of waiting for the set.
 */
export async function writeMarcJob({
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
    const marks = subset?.marks;
    // Each chunk is written before the next is made: their buffers are reused.
    for (const chunk of marcFileChunks(
      marcRecords(readWorkParts(works), domain, status),
      undefined,
      true,
      marks && ((index) => marks[index] === 1),
    )) {
      const fd =
        chunk.file === "iso2709"
          ? chunk.subset
            ? subsetIso
            : iso
          : chunk.subset
            ? subsetXml
            : xml;
      writeAll(fd!, chunk.chunk);
      await nextTurn();
    }
  } finally {
    for (const fd of files) closeSync(fd);
  }
}

function writeAll(fd: number, chunk: Uint8Array): void {
  for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done, chunk.length - done);
}
