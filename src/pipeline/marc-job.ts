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
  works: MarcWork[];
  status: MarcStatus;
}

/** The job that writes both files of `input` (its works structured-cloned into the thread). */
export const marcJob = (input: MarcJobInput): ThreadJob => ({
  module: new URL(import.meta.url),
  name: writeMarcJob.name,
  input,
});

/** Writes both files of the same records, chunk by chunk: memory holds a record and a chunk of each. */
export function writeMarcJob({ iso2709, marcxml, domain, works, status }: MarcJobInput): void {
  const iso = openSync(iso2709, "w");
  try {
    const xml = openSync(marcxml, "w");
    try {
      writeMarcFiles(marcRecords(works, domain, status), {
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
