import { closeSync, openSync, writeSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
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
   * The works, in parts of at most PART_WORKS works, each a JSON array in UTF-8
   * (`marcWorkParts`): moved into the thread, not copied, and read a part at a time there, each
   * part let go once read, so that neither thread holds a set's works as objects (a structured
   * clone of thousands of works cost the main thread their copy, and the writer thread a heap of
   * them).
   */
  works: (Uint8Array | undefined)[];
  /** How many works `works` holds. */
  records: number;
  status: MarcStatus;
}

/**
 * Works in a part: one JSON text each way for many works (a text a work cost a call to encode,
 * decode and parse each), few enough that a part's objects are little to hold.
 */
const PART_WORKS = 100;

/** Works as MarcJobInput's `works`: each part sized to its text. */
export function marcWorkParts(works: Iterable<MarcWork>): Uint8Array[] {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let part: MarcWork[] = [];
  for (const work of works) {
    part.push(work);
    if (part.length === PART_WORKS) {
      parts.push(encoder.encode(JSON.stringify(part)));
      part = [];
    }
  }
  if (part.length > 0) parts.push(encoder.encode(JSON.stringify(part)));
  return parts;
}

/** The works of `parts`, one at a time; each part is dropped from the list once read. */
export function* readWorkParts(parts: (Uint8Array | undefined)[]): Generator<MarcWork> {
  const decoder = new TextDecoder();
  for (let i = 0; i < parts.length; i++) {
    const works = JSON.parse(decoder.decode(parts[i])) as MarcWork[];
    parts[i] = undefined;
    yield* works;
  }
}

/** The job that writes both files of `input` (its works' buffer moved into the thread). */
export const marcJob = (input: MarcJobInput): ThreadJob => ({
  module: new URL(import.meta.url),
  name: writeMarcJob.name,
  input,
  // The sets of a domain are written at once, each in the least busy thread.
  anyThread: true,
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
}: MarcJobInput): Promise<void> {
  const iso = openSync(iso2709, "w");
  try {
    const xml = openSync(marcxml, "w");
    try {
      for (const { file, chunk } of marcFileChunks(
        marcRecords(readWorkParts(works), domain, status),
      )) {
        writeAll(file === "iso2709" ? iso : xml, chunk);
        await nextTurn();
      }
    } finally {
      closeSync(xml);
    }
  } finally {
    closeSync(iso);
  }
}

function writeAll(fd: number, chunk: Uint8Array): void {
  for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done, chunk.length - done);
}
