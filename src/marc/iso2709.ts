import {
  checkStructure,
  dropForbidden,
  isControlField,
  MAX_FIELD_BYTES,
  MAX_RECORD_BYTES,
  type Field,
  type MarcRecord,
} from "./record.ts";

/**
 * MARC 21 records in ISO 2709 (MARC 21's "MARC communications format"), UTF-8 as leader/09 `a`
 * says: the leader, a directory of 12-byte entries (tag, field length, start), the directory's
 * field terminator, then the fields, each ended by a field terminator, and the record terminator.
 * Every length and start counts bytes of the UTF-8 text, not characters.
 *
 * A record is written straight into the buffer it is handed out in: the directory's size is
 * known before the data (12 bytes a field), so data goes in first and the leader and directory
 * are filled in after, with no intermediate string of the whole record.
 */

const FT = 0x1e;
const RT = 0x1d;
const DELIMITER = 0x1f;
const ENTRY = 12;
const LEADER = 24;

/** The bytes of one record. */
export function iso2709(record: MarcRecord): Uint8Array {
  const buffer = Buffer.allocUnsafe(upperBound(record));
  return buffer.subarray(0, writeRecord(record, buffer, 0));
}

/**
 * The bytes of a file of records, in chunks of about `chunkBytes` (records are never split across
 * chunks unless one record alone is larger): what a stream or a file sink takes part by part, so
 * memory holds one chunk, not the file.
 */
export function* iso2709Chunks(records: Iterable<MarcRecord>, chunkBytes = 64 * 1024): Generator<Uint8Array> {
  let chunk = Buffer.allocUnsafe(chunkBytes);
  let used = 0;
  for (const record of records) {
    const bound = upperBound(record);
    if (used + bound > chunk.length) {
      if (used > 0) yield chunk.subarray(0, used);
      chunk = Buffer.allocUnsafe(Math.max(chunkBytes, bound));
      used = 0;
    }
    used += writeRecord(record, chunk, used);
  }
  if (used > 0) yield chunk.subarray(0, used);
}

/** The leader as the ISO 2709 record has it: record length and base address computed. */
export function iso2709Leader(record: MarcRecord): string {
  checkStructure(record);
  const base = LEADER + ENTRY * record.fields.length + 1;
  let length = base + 1;
  for (const field of record.fields) length += checkedFieldLength(field, iso2709FieldBytes(field));
  return leaderWith(record.leader, checkedRecordLength(length), base);
}

/** The bytes a field takes in ISO 2709 (UTF-8 text, indicators, delimiters, its terminator). */
export function iso2709FieldBytes(field: Field): number {
  if (isControlField(field)) return Buffer.byteLength(dropForbidden(field.value)) + 1;
  let bytes = 3;
  for (const { value } of field.subfields) bytes += 2 + Buffer.byteLength(dropForbidden(value));
  return bytes;
}

/** At most the bytes the record takes: three UTF-8 bytes for each UTF-16 unit (a pair makes four). */
function upperBound(record: MarcRecord): number {
  let bytes = LEADER + ENTRY * record.fields.length + 2;
  for (const field of record.fields) {
    if (isControlField(field)) bytes += 3 * field.value.length + 1;
    else for (const { value } of field.subfields) bytes += 2 + 3 * value.length;
    bytes += 3;
  }
  return bytes;
}

/** Writes `record` at `at` in `out` (room for upperBound bytes) and gives its length. */
function writeRecord(record: MarcRecord, out: Buffer, at: number): number {
  checkStructure(record);
  const base = LEADER + ENTRY * record.fields.length + 1;
  let position = at + base;
  let entry = at + LEADER;
  for (const field of record.fields) {
    const start = position;
    if (isControlField(field)) {
      position += out.write(dropForbidden(field.value), position, "utf8");
    } else {
      out[position++] = field.ind1.charCodeAt(0);
      out[position++] = field.ind2.charCodeAt(0);
      for (const { code, value } of field.subfields) {
        out[position++] = DELIMITER;
        out[position++] = code.charCodeAt(0);
        position += out.write(dropForbidden(value), position, "utf8");
      }
    }
    out[position++] = FT;
    const length = checkedFieldLength(field, position - start);
    entry += out.write(`${field.tag}${pad(length, 4)}${pad(start - at - base, 5)}`, entry, "latin1");
  }
  out[entry] = FT;
  out[position++] = RT;
  const length = checkedRecordLength(position - at);
  out.write(leaderWith(record.leader, length, base), at, "latin1");
  return length;
}

function checkedFieldLength(field: Field, bytes: number): number {
  if (bytes > MAX_FIELD_BYTES) throw new Error(`MARC field ${field.tag} is ${bytes} bytes, over ISO 2709's ${MAX_FIELD_BYTES}: the mapping should have cut it`);
  return bytes;
}

function checkedRecordLength(bytes: number): number {
  if (bytes > MAX_RECORD_BYTES) throw new Error(`MARC record is ${bytes} bytes, over ISO 2709's ${MAX_RECORD_BYTES}: the mapping should have cut it`);
  return bytes;
}

function leaderWith(leader: string, length: number, base: number): string {
  return `${pad(length, 5)}${leader.slice(5, 12)}${pad(base, 5)}${leader.slice(17)}`;
}

const pad = (value: number, width: number) => String(value).padStart(width, "0");
