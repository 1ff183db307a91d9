import { closeSync, openSync, writeSync } from "node:fs";
import type { ThreadJob } from "../output/writer-pool.ts";
import { marcRecords, type MarcDomain, type MarcStatus, type MarcWork } from "../marc/map.ts";
import { writeMarcFiles } from "../marc/record-files.ts";

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

/** Works as MarcJobInput's `works`. */
export function marcWorkLines(works: Iterable<MarcWork>): Uint8Array {
  let text = "";
  for (const work of works) text += (text === "" ? "" : "\n") + JSON.stringify(work);
  return new TextEncoder().encode(text);
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

/** Writes both files of the same records, chunk by chunk: memory holds a record and a chunk of each. */
export function writeMarcJob({ iso2709, marcxml, domain, works, status }: MarcJobInput): void {
  const iso = openSync(iso2709, "w");
  try {
    const xml = openSync(marcxml, "w");
    try {
      writeMarcFiles(marcRecords(readWorkLines(works), domain, status), {
        iso2709: (chunk) => writeAll(iso, chunk),
        marcxml: (chunk) => writeAll(xml, chunk),
      });
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
