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
   * The works, one JSON text a line, in UTF-8 (`marcWorkLines`): moved into the thread, not
   * copied, and read a work at a time there, so that neither thread holds a set's works as
   * objects (a structured clone of thousands of works cost the main thread their copy, and the
   * writer thread a heap of them).
   */
  works: Uint8Array;
  /** How many works `works` holds. */
  records: number;
  status: MarcStatus;
}

/**
 * Works as MarcJobInput's `works`: each work's JSON encoded into one growing buffer as it comes
 * (a text of every line, joined, then encoded, held the set twice over).
 */
export function marcWorkLines(works: Iterable<MarcWork>, expected = 0): Uint8Array {
  const encoder = new TextEncoder();
  let bytes = new Uint8Array(Math.max(4096, expected * 768));
  let length = 0;
  for (const work of works) {
    const line = (length === 0 ? "" : "\n") + JSON.stringify(work);
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (length + line.length * 3 > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, length + line.length * 3));
      grown.set(bytes.subarray(0, length));
      bytes = grown;
    }
    length += encoder.encodeInto(line, bytes.subarray(length)).written;
  }
  return bytes.subarray(0, length);
}

/** The works of `lines`, one at a time. */
export function* readWorkLines(lines: Uint8Array): Generator<MarcWork> {
  const decoder = new TextDecoder();
  // JSON escapes a line feed inside a text: each one here ends a work.
  for (let start = 0; start < lines.length;) {
    let end = lines.indexOf(0x0a, start);
    if (end === -1) end = lines.length;
    yield JSON.parse(decoder.decode(lines.subarray(start, end))) as MarcWork;
    start = end + 1;
  }
}

/** The job that writes both files of `input` (its works' buffer moved into the thread). */
export const marcJob = (input: MarcJobInput): ThreadJob => ({
  module: new URL(import.meta.url),
  name: writeMarcJob.name,
  input,
  transfer: [input.works.buffer as ArrayBuffer],
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
        marcRecords(readWorkLines(works), domain, status),
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
