import { Iso2709Chunks } from "./iso2709.ts";
import { MarcxmlChunks } from "./marcxml.ts";
import type { MarcRecord } from "./record.ts";

/** Where the chunks of the two files of a set of records go, as they are filled (a file descriptor, a stream). */
export interface MarcSinks {
  iso2709(chunk: Uint8Array): void;
  marcxml(chunk: Uint8Array): void;
}

export interface MarcFilesOptions {
  /** About how large a chunk is (a record larger than that is a chunk of its own). */
  chunkBytes?: number;
  /**
   * A chunk's buffer is filled again two chunks later (ChunkBuffers), for sinks that write each
   * chunk before they return.
   */
  reuse?: boolean;
  /**
   * Two more files holding some of the same records, in the same order (the ups among all listed
   * works): `holds` tells by a record's index whether they hold it. Their bytes are copied from
   * the first files', not made again.
   */
  subset?: { sinks: MarcSinks; holds: (index: number) => boolean };
}

/**
 * The ISO 2709 and MARCXML files of the same records, filled in one pass: each record is made
 * once (mapping a work costs more than writing it) and handed to both, and memory holds one
 * record and a chunk of each file. Each chunk goes to its sink as it fills, in each file's order;
 * the records come one call at a time, so that a caller can wait between them (for the next
 * works, in a writer thread: src/pipeline/marc-job.ts).
 */
export class MarcFiles {
  private readonly iso2709: Iso2709Chunks;
  private readonly marcxml: MarcxmlChunks;
  private readonly subset: {
    sinks: MarcSinks;
    holds: (index: number) => boolean;
    iso2709: Iso2709Chunks;
    marcxml: MarcxmlChunks;
  } | null;
  /** The records added so far. */
  count = 0;

  constructor(
    private readonly sinks: MarcSinks,
    { chunkBytes = 64 * 1024, reuse = false, subset }: MarcFilesOptions = {},
  ) {
    this.iso2709 = new Iso2709Chunks(chunkBytes, reuse);
    this.marcxml = new MarcxmlChunks(chunkBytes, reuse);
    this.subset = subset
      ? {
          ...subset,
          iso2709: new Iso2709Chunks(chunkBytes, reuse),
          marcxml: new MarcxmlChunks(chunkBytes, reuse),
        }
      : null;
  }

  add(record: MarcRecord): void {
    const { iso2709, marcxml, sinks, subset } = this;
    const isoChunk = iso2709.add(record);
    if (isoChunk !== null) sinks.iso2709(isoChunk);
    const xmlChunk = marcxml.addIso2709(iso2709.chunk, iso2709.lastStart, record.fields);
    if (xmlChunk !== null) sinks.marcxml(xmlChunk);
    if (subset !== null && subset.holds(this.count)) {
      const isoPart = subset.iso2709.addWritten(iso2709.chunk, iso2709.lastStart);
      if (isoPart !== null) subset.sinks.iso2709(isoPart);
      const { start, length } = marcxml.last;
      const xmlPart = subset.marcxml.addWritten(marcxml.chunk, start, length);
      if (xmlPart !== null) subset.sinks.marcxml(xmlPart);
    }
    this.count++;
  }

  /** Hands out the last chunks: the files are whole. */
  end(): void {
    finish(this.sinks, this.iso2709, this.marcxml);
    if (this.subset !== null) finish(this.subset.sinks, this.subset.iso2709, this.subset.marcxml);
  }
}

function finish(sinks: MarcSinks, iso2709: Iso2709Chunks, marcxml: MarcxmlChunks): void {
  const last = iso2709.end();
  if (last !== null) sinks.iso2709(last);
  sinks.marcxml(marcxml.end());
}

/** Both files of `records`, their chunks handed to `sinks` as they come. Gives the number of records. */
export function writeMarcFiles(
  records: Iterable<MarcRecord>,
  sinks: MarcSinks,
  chunkBytes = 64 * 1024,
): number {
  const files = new MarcFiles(sinks, { chunkBytes });
  for (const record of records) files.add(record);
  files.end();
  return files.count;
}
