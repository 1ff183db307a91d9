import { iso2709Leader } from "./iso2709.ts";
import { isControlField, withoutForbidden, type MarcRecord } from "./record.ts";

/**
 * MARC 21 records in MARCXML (the MARC 21 slim schema): a `<collection>` of `<record>`s. The
 * leader is the one the ISO 2709 file holds (its lengths computed the same way), so the two files
 * carry the same records to the byte; text is escaped, and the characters XML cannot hold are
 * dropped (as the ISO 2709 writer drops them).
 */

export const MARCXML_NAMESPACE = "http://www.loc.gov/MARC21/slim";

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="${MARCXML_NAMESPACE}">\n`;
const TAIL = "</collection>\n";

/** One `<record>` element, indented as in a collection, ending with a line break. */
export function marcxmlRecord(record: MarcRecord): string {
  const clean = withoutForbidden(record);
  let xml = `<record>\n  <leader>${iso2709Leader(clean)}</leader>\n`;
  for (const field of clean.fields) {
    if (isControlField(field)) {
      xml += `  <controlfield tag="${field.tag}">${escape(field.value)}</controlfield>\n`;
      continue;
    }
    xml += `  <datafield tag="${field.tag}" ind1="${field.ind1}" ind2="${field.ind2}">\n`;
    for (const { code, value } of field.subfields) xml += `    <subfield code="${code}">${escape(value)}</subfield>\n`;
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
 * holds one chunk's text, not the file's.
 */
export function* marcxmlChunks(records: Iterable<MarcRecord>, chunkBytes = 64 * 1024): Generator<Uint8Array> {
  let text = HEAD;
  for (const record of records) {
    text += marcxmlRecord(record);
    // UTF-16 units: a chunk of text turns into at least as many bytes.
    if (text.length >= chunkBytes) {
      yield Buffer.from(text);
      text = "";
    }
  }
  yield Buffer.from(text + TAIL);
}

// A carriage return is written as a reference: a parser reads a raw one as a line feed.
const SPECIAL = /[&<>"\r]/;
const SPECIAL_ALL = /[&<>"\r]/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;" };

/** A value of a record withoutForbidden, escaped. */
const escape = (text: string): string => (SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ENTITIES[c]!) : text);
