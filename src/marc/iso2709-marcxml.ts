import { isShared, type Field } from "./record.ts";

/**
 * A record's MARCXML element written from its ISO 2709 bytes: the same text, already UTF-8 there,
 * copied byte by byte between the markup and escaped on the way (the characters to escape are
 * ASCII, so a UTF-8 sequence never holds one). The two files of a set of records are written in
 * one pass (record-files.ts); building each element as a string and encoding it again cost more
 * than the rest of the MARCXML file. marcxmlRecord (marcxml.ts) makes the same element from the
 * record's fields.
 */

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

const RECORD_START = ascii("<record>\n  <leader>");
const LEADER_END = ascii("</leader>\n");
const CONTROL_START = ascii('  <controlfield tag="');
const CONTROL_END = ascii("</controlfield>\n");
const DATA_START = ascii('  <datafield tag="');
const IND1 = ascii('" ind1="');
const IND2 = ascii('" ind2="');
const DATA_OPEN_END = ascii('">\n');
const SUBFIELD_START = ascii('    <subfield code="');
const SUBFIELD_END = ascii("</subfield>\n");
const DATA_END = ascii("  </datafield>\n");
const RECORD_END = ascii("</record>\n");
const TAG_END = ascii('">');

/** The entity of each byte that needs one (a carriage return: a parser reads a raw one as a line feed). */
const ENTITIES: (Uint8Array | undefined)[] = [];
ENTITIES[0x26] = ascii("&amp;");
ENTITIES[0x3c] = ascii("&lt;");
ENTITIES[0x3e] = ascii("&gt;");
ENTITIES[0x22] = ascii("&quot;");
ENTITIES[0x0d] = ascii("&#13;");

const SUBFIELD_DELIMITER = 0x1f;
const DIGIT_0 = 0x30;

/**
 * At most the bytes the element of an ISO 2709 record of `length` bytes takes: a byte escaped
 * takes six at most; a subfield's delimiter and code, two bytes, open and close its element (35);
 * a field's directory entry and terminator, thirteen, its element's markup (under 60).
 */
export const marcxmlBound = (length: number): number => 20 * length + 64;

/**
 * Writes the element of the record at `iso[start, start + length)` (a record the ISO 2709 writer
 * made: its structure checked, its text clean) into `out` at `at` (room for marcxmlBound bytes);
 * gives the bytes written. `fields`: the record's fields, in the order the ISO 2709 writer wrote
 * them, when the caller has them: a shared field's element (record.ts) is then made once and
 * copied into every record that holds it.
 */
export function writeMarcxmlFromIso2709(
  iso: Uint8Array,
  start: number,
  out: Uint8Array,
  at: number,
  fields?: readonly Field[],
): number {
  let p = copy(RECORD_START, out, at);
  p = escaped(iso, start, start + 24, out, p);
  p = copy(LEADER_END, out, p);
  const base = start + number(iso, start + 12, 5);
  for (let entry = start + 24, i = 0; iso[entry] !== 0x1e; entry += 12, i++) {
    const field = fields?.[i];
    const known = field && elements.get(field);
    if (known !== undefined) {
      out.set(known, p);
      p += known.length;
      continue;
    }
    const from = p;
    p = writeElement(iso, entry, base, out, p);
    if (field && isShared(field)) elements.set(field, new Uint8Array(out.subarray(from, p)));
  }
  return copy(RECORD_END, out, p) - at;
}

/** The elements of the shared fields (record.ts) written so far. */
const elements = new WeakMap<Field, Uint8Array>();

/** Writes the element of the field whose directory entry is at `entry`; gives where it ends. */
function writeElement(
  iso: Uint8Array,
  entry: number,
  base: number,
  out: Uint8Array,
  at: number,
): number {
  const fieldLength = number(iso, entry + 3, 4);
  const from = base + number(iso, entry + 7, 5);
  // Without its terminator.
  const to = from + fieldLength - 1;
  let p = at;
  // Tags 001-009 are control fields (checkStructure holds the mapping to it).
  if (iso[entry] === DIGIT_0 && iso[entry + 1] === DIGIT_0) {
    p = copy(CONTROL_START, out, p);
    p = copyRange(iso, entry, entry + 3, out, p);
    p = copy(TAG_END, out, p);
    p = escaped(iso, from, to, out, p);
    return copy(CONTROL_END, out, p);
  }
  p = copy(DATA_START, out, p);
  p = copyRange(iso, entry, entry + 3, out, p);
  p = copy(IND1, out, p);
  out[p++] = iso[from]!;
  p = copy(IND2, out, p);
  out[p++] = iso[from + 1]!;
  p = copy(DATA_OPEN_END, out, p);
  // Each subfield: its delimiter, its code, its value up to the next delimiter or the end.
  let i = from + 2;
  while (i < to) {
    p = copy(SUBFIELD_START, out, p);
    out[p++] = iso[i + 1]!;
    p = copy(TAG_END, out, p);
    let end = i + 2;
    while (end < to && iso[end] !== SUBFIELD_DELIMITER) end++;
    p = escaped(iso, i + 2, end, out, p);
    p = copy(SUBFIELD_END, out, p);
    i = end;
  }
  return copy(DATA_END, out, p);
}

function copy(bytes: Uint8Array, out: Uint8Array, at: number): number {
  // The markup: a native copy for the longer pieces, a loop for the few bytes of the others.
  if (bytes.length >= 12) out.set(bytes, at);
  else for (let i = 0; i < bytes.length; i++) out[at + i] = bytes[i]!;
  return at + bytes.length;
}

function copyRange(from: Uint8Array, start: number, end: number, out: Uint8Array, at: number) {
  for (let i = start; i < end; i++) out[at++] = from[i]!;
  return at;
}

function escaped(from: Uint8Array, start: number, end: number, out: Uint8Array, at: number) {
  if (end - start >= 64 && !needsEscape(from, start, end)) {
    out.set(from.subarray(start, end), at);
    return at + end - start;
  }
  for (let i = start; i < end; i++) {
    const byte = from[i]!;
    const entity = byte < 0x3f ? ENTITIES[byte] : undefined;
    if (entity === undefined) out[at++] = byte;
    else at = copy(entity, out, at);
  }
  return at;
}

/** Whether a byte of `from[start, end)` needs escaping (a long value, most often none: copied whole). */
function needsEscape(from: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++)
    if (from[i]! < 0x3f && ENTITIES[from[i]!] !== undefined) return true;
  return false;
}

/** The decimal number of `digits` ASCII digits at `at`. */
function number(bytes: Uint8Array, at: number, digits: number): number {
  let value = 0;
  for (let i = at; i < at + digits; i++) value = value * 10 + bytes[i]! - DIGIT_0;
  return value;
}
