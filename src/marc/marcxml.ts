import { ChunkBuffers } from "./chunk-buffers.ts";
import { iso2709Leader, iso2709Length } from "./iso2709.ts";
import { marcxmlBound, writeMarcxmlFromIso2709 } from "./iso2709-marcxml.ts";
import {
  checkStructure,
  isControlField,
  withoutForbidden,
  type Field,
  type MarcRecord,
} from "./record.ts";

/**
 * MARC 21 records in MARCXML (the MARC 21 slim schema): a `<collection>` of `<record>`s. The
 * leader is the one the ISO 2709 file holds (its lengths computed the same way), so the two files
 * carry the same records to the byte; text is escaped, and the characters XML cannot hold are
 * dropped (as the ISO 2709 writer drops them).
 */

export const MARCXML_NAMESPACE = "http://www.loc.gov/MARC21/slim";

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="${MARCXML_NAMESPACE}">\n`;
const TAIL = "</collection>\n";

/**
 * One `<record>` element, indented as in a collection, ending with a line break. `leader`: the
 * record's ISO 2709 leader when the caller has it (it wrote the record), else computed.
 */
export function marcxmlRecord(record: MarcRecord, leader?: string): string {
  const clean = withoutForbidden(record);
  // Tags, indicators and codes go into attributes as they are: checked (iso2709Leader checks too).
  if (leader !== undefined) checkStructure(clean);
  let xml = `<record>\n  <leader>${escape(leader ?? iso2709Leader(clean))}</leader>\n`;
  for (const field of clean.fields) {
    if (isControlField(field)) {
      xml += `  <controlfield tag="${field.tag}">${escape(field.value)}</controlfield>\n`;
      continue;
    }
    xml += `  <datafield tag="${field.tag}" ind1="${field.ind1}" ind2="${field.ind2}">\n`;
    for (const { code, value } of field.subfields)
      xml += `    <subfield code="${code}">${escape(value)}</subfield>\n`;
    xml += "  </datafield>\n";
  }
  return `${xml}</record>\n`;
}

/** A whole collection as one string (small files, tests). */
export function marcxml(records: Iterable<MarcRecord>): string {
  let xml = HEAD;
  for (const record of records) xml += marcxmlRecord(record);
  return xml + TAIL;
}

/**
 * A collection in UTF-8 chunks of about `chunkBytes`: the head, the records, the tail. Memory
 * holds one record's text and one chunk, not the file.
 */
export function* marcxmlChunks(
  records: Iterable<MarcRecord>,
  chunkBytes = 64 * 1024,
): Generator<Uint8Array> {
  const file = new MarcxmlChunks(chunkBytes);
  for (const record of records) {
    const full = file.add(record);
    if (full !== null) yield full;
  }
  yield file.end();
}

/** A collection filled one record at a time, handing out each chunk when the next record does not fit in it. */
export class MarcxmlChunks {
  /** The chunk being filled. */
  chunk: Buffer;
  private used: number;
  private lastStart = 0;
  private scratch = Buffer.allocUnsafe(0);

  private readonly buffers: ChunkBuffers;

  /** `reuse`: see ChunkBuffers (each chunk must be done with before the next is asked for). */
  constructor(
    private readonly chunkBytes = 64 * 1024,
    reuse = false,
  ) {
    this.buffers = new ChunkBuffers(reuse);
    this.chunk = Buffer.allocUnsafe(Math.max(chunkBytes, HEAD.length));
    this.used = this.chunk.write(HEAD, 0, "utf8");
  }

  /** Adds a record (`leader`: its ISO 2709 leader, if known); gives the chunk it filled, if it had to start another. */
  add(record: MarcRecord, leader?: string): Uint8Array | null {
    return this.addXml(marcxmlRecord(record, leader));
  }

  /**
   * Adds the record the ISO 2709 writer of the same records has just written, from its bytes
   * (`iso` from `start`): checked and cleaned there, and already UTF-8. `fields`: the record's
   * fields as that writer wrote them, when known (shared ones are then copied: see
   * writeMarcxmlFromIso2709).
   */
  addIso2709(iso: Uint8Array, start: number, fields?: readonly Field[]): Uint8Array | null {
    // Straight into the chunk while what is left of it holds any element of the record; near
    // its end, written aside then into the chunk as long as it is: a bound for each record would
    // start a chunk far sooner than the chunk is full.
    const bound = marcxmlBound(iso2709Length(iso, start));
    if (this.used + bound <= this.chunk.length) {
      this.lastStart = this.used;
      this.used += writeMarcxmlFromIso2709(iso, start, this.chunk, this.used, fields);
      return null;
    }
    if (this.scratch.length < bound) this.scratch = Buffer.allocUnsafe(bound);
    const length = writeMarcxmlFromIso2709(iso, start, this.scratch, 0, fields);
    return this.addWritten(this.scratch, 0, length);
  }

  /**
   * Adds a record's element another collection has just been given, as its bytes at `start` in
   * `written` (a subset of a set's records: the same bytes, not made again); gives the chunk it
   * filled, if it had to start another.
   */
  addWritten(written: Buffer, start: number, length: number): Uint8Array | null {
    const full = this.room(length);
    this.lastStart = this.used;
    this.used += written.copy(this.chunk, this.used, start, start + length);
    return full;
  }

  /** Where the element added last starts in `chunk`, and its length. */
  get last(): { start: number; length: number } {
    return { start: this.lastStart, length: this.used - this.lastStart };
  }

  private addXml(xml: string): Uint8Array | null {
    // At most three UTF-8 bytes for each UTF-16 unit.
    const full = this.room(3 * xml.length);
    this.used += this.chunk.write(xml, this.used, "utf8");
    return full;
  }

  /** Makes room for `bound` bytes; gives the chunk it filled, if it had to start another. */
  private room(bound: number): Uint8Array | null {
    if (this.used + bound <= this.chunk.length) return null;
    const full = this.chunk.subarray(0, this.used);
    this.chunk = this.buffers.next(this.chunk, Math.max(this.chunkBytes, bound));
    this.used = 0;
    return full.length > 0 ? full : null;
  }

  /** The rest, with the collection's end. */
  end(): Uint8Array {
    // A copy: the chunk's buffer is filled again.
    const last = Buffer.concat([this.chunk.subarray(0, this.used), Buffer.from(TAIL)]);
    this.used = this.chunk.write(HEAD, 0, "utf8");
    return last;
  }
}

// A carriage return is written as a reference: a parser reads a raw one as a line feed.
const SPECIAL = /[&<>"\r]/;
const SPECIAL_ALL = /[&<>"\r]/g;
const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\r": "&#13;",
};

/** A value of a record withoutForbidden, escaped. */
const escape = (text: string): string =>
  SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ENTITIES[c]!) : text;
