import { Iso2709Chunks } from "./iso2709.ts";
import { MarcxmlChunks } from "./marcxml.ts";
import type { MarcRecord } from "./record.ts";

/** Where the chunks of the two files of a set of records go, as they are filled (a file descriptor, a stream). */
export interface MarcSinks {
  iso2709(chunk: Uint8Array): void;
  marcxml(chunk: Uint8Array): void;
}

/** A chunk of one of the two files (`subset`: of the subset's files). */
export interface MarcChunk {
  file: keyof MarcSinks;
  chunk: Uint8Array;
  subset?: true;
}

/**
 * The ISO 2709 and MARCXML files of the same records, made in one pass: each record is made once
 * (mapping a work costs more than writing it) and handed to both, and memory holds one record
 * and a chunk of each file. The chunks come as they fill, in each file's order; a caller may
 * pause between them (a writer thread lets other work in). `reuse`: a chunk's buffer is filled
 * again two chunks later (ChunkBuffers), for a caller that writes each chunk before the next.
 * `subset`: the records (by their index) that two more files hold too, in the same order (the
 * ups among all listed works), their bytes copied from the first files' (chunks marked `subset`).
 */
export function* marcFileChunks(
  records: Iterable<MarcRecord>,
  chunkBytes = 64 * 1024,
  reuse = false,
  subset?: (index: number) => boolean,
): Generator<MarcChunk> {
  const iso2709 = new Iso2709Chunks(chunkBytes, reuse);
  const marcxml = new MarcxmlChunks(chunkBytes, reuse);
  const subsetFiles =
    subset === undefined
      ? null
      : {
          iso2709: new Iso2709Chunks(chunkBytes, reuse),
          marcxml: new MarcxmlChunks(chunkBytes, reuse),
        };
  let index = 0;
  for (const record of records) {
    const isoChunk = iso2709.add(record);
    if (isoChunk !== null) yield { file: "iso2709", chunk: isoChunk };
    const xmlChunk = marcxml.addIso2709(iso2709.chunk, iso2709.lastStart);
    if (xmlChunk !== null) yield { file: "marcxml", chunk: xmlChunk };
    if (subsetFiles !== null && subset!(index)) {
      const { iso2709: iso, marcxml: xml } = subsetFiles;
      const isoPart = iso.addWritten(iso2709.chunk, iso2709.lastStart);
      if (isoPart !== null) yield { file: "iso2709", chunk: isoPart, subset: true };
      const xmlPart = xml.addIso2709(iso.chunk, iso.lastStart);
      if (xmlPart !== null) yield { file: "marcxml", chunk: xmlPart, subset: true };
    }
    index++;
  }
  const last = iso2709.end();
  if (last !== null) yield { file: "iso2709", chunk: last };
  yield { file: "marcxml", chunk: marcxml.end() };
  if (subsetFiles === null) return;
  const subsetLast = subsetFiles.iso2709.end();
  if (subsetLast !== null) yield { file: "iso2709", chunk: subsetLast, subset: true };
  yield { file: "marcxml", chunk: subsetFiles.marcxml.end(), subset: true };
}

/** marcFileChunks handed to `sinks` as they come. Gives the number of records. */
export function writeMarcFiles(
  records: Iterable<MarcRecord>,
  sinks: MarcSinks,
  chunkBytes = 64 * 1024,
): number {
  let count = 0;
  const counted = function* () {
    for (const record of records) {
      count++;
      yield record;
    }
  };
  for (const { file, chunk } of marcFileChunks(counted(), chunkBytes)) sinks[file](chunk);
  return count;
}
