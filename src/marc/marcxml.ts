import { iso2709Leader } from "./iso2709.ts";
import { checkStructure, isControlField, withoutForbidden, type MarcRecord } from "./record.ts";

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
  return recordXml(clean, leader ?? iso2709Leader(clean));
}

/** The element of a record already checked and without forbidden characters, and its leader. */
function recordXml(clean: MarcRecord, leader: string): string {
  let xml = `<record>\n  <leader>${escape(leader)}</leader>\n`;
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
  private chunk: Buffer;
  private used: number;

  constructor(private readonly chunkBytes = 64 * 1024) {
    this.chunk = Buffer.allocUnsafe(Math.max(chunkBytes, HEAD.length));
    this.used = this.chunk.write(HEAD, 0, "utf8");
  }

  /** Adds a record (`leader`: its ISO 2709 leader, if known); gives the chunk it filled, if it had to start another. */
  add(record: MarcRecord, leader?: string): Uint8Array | null {
    return this.addXml(marcxmlRecord(record, leader));
  }

  /**
   * Adds a record the ISO 2709 writer has just written (Iso2709Chunks' `written` and `leader`):
   * checked and cleaned there, so not again.
   */
  addWritten(written: MarcRecord, leader: string): Uint8Array | null {
    return this.addXml(recordXml(written, leader));
  }

  private addXml(xml: string): Uint8Array | null {
    // At most three UTF-8 bytes for each UTF-16 unit.
    const bound = 3 * xml.length;
    let full: Uint8Array | null = null;
    if (this.used + bound > this.chunk.length) {
      full = this.chunk.subarray(0, this.used);
      this.chunk = Buffer.allocUnsafe(Math.max(this.chunkBytes, bound));
      this.used = 0;
    }
    this.used += this.chunk.write(xml, this.used, "utf8");
    return full !== null && full.length > 0 ? full : null;
  }

  /** The rest, with the collection's end. */
  end(): Uint8Array {
    const last = Buffer.concat([this.chunk.subarray(0, this.used), Buffer.from(TAIL)]);
    this.chunk = Buffer.allocUnsafe(Math.max(this.chunkBytes, HEAD.length));
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
