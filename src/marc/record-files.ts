import { Iso2709Chunks } from "./iso2709.ts";
import { MarcxmlChunks } from "./marcxml.ts";
import type { MarcRecord } from "./record.ts";

/** Where the chunks of the two files of a set of records go, as they are filled (a file descriptor, a stream). */
export interface MarcSinks {
  iso2709(chunk: Uint8Array): void;
  marcxml(chunk: Uint8Array): void;
}

/**
 * The ISO 2709 and MARCXML files of the same records, written in one pass: each record is made
 * once (mapping a work costs more than writing it) and handed to both, and memory holds one record
 * and a chunk of each file. Gives the number of records.
 */
export function writeMarcFiles(
  records: Iterable<MarcRecord>,
  sinks: MarcSinks,
  chunkBytes = 64 * 1024,
): number {
  const iso2709 = new Iso2709Chunks(chunkBytes);
  const marcxml = new MarcxmlChunks(chunkBytes);
  let count = 0;
  for (const record of records) {
    const isoChunk = iso2709.add(record);
    if (isoChunk !== null) sinks.iso2709(isoChunk);
    const xmlChunk = marcxml.add(record, iso2709.leader);
    if (xmlChunk !== null) sinks.marcxml(xmlChunk);
    count++;
  }
  const last = iso2709.end();
  if (last !== null) sinks.iso2709(last);
  sinks.marcxml(marcxml.end());
  return count;
}
