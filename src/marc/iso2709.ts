import {
  checkStructure,
  dropForbidden,
  isControlField,
  MAX_FIELD_BYTES,
  MAX_RECORD_BYTES,
  withoutForbidden,
  type Field,
  type MarcRecord,
} from "./record.ts";

/**
 * MARC 21 records in ISO 2709 (MARC 21's "MARC communications format"), UTF-8 as leader/09 `a`
 * says: the leader, a directory of 12-byte entries (tag, field length, start), the directory's
 * field terminator, then the fields, each ended by a field terminator, and the record terminator.
 * Every length and start counts bytes of the UTF-8 text, not characters.
 *
 * A record is written straight into the chunk it is handed out in: the directory's size is known
 * before the data (12 bytes a field), so the data goes in first and the leader and directory are
 * filled in after.
 */

const FT = 0x1e;
const RT = 0x1d;
const ENTRY = 12;
const LEADER = 24;

/** The bytes of one record. */
export function iso2709(record: MarcRecord): Uint8Array {
  const clean = withoutForbidden(record);
  const texts = fieldTexts(clean);
  const buffer = Buffer.allocUnsafe(upperBound(texts));
  return buffer.subarray(0, writeRecord(clean, texts, buffer, 0));
}

/**
 * The bytes of a file of records, in chunks of about `chunkBytes` (records are never split across
 * chunks unless one record alone is larger): what a stream or a file sink takes part by part, so
 * memory holds one chunk, not the file.
 */
export function* iso2709Chunks(
  records: Iterable<MarcRecord>,
  chunkBytes = 64 * 1024,
): Generator<Uint8Array> {
  const file = new Iso2709Chunks(chunkBytes);
  for (const record of records) {
    const full = file.add(record);
    if (full !== null) yield full;
  }
  const last = file.end();
  if (last !== null) yield last;
}

/** A file of records filled one record at a time, handing out each chunk when the next record does not fit in it. */
export class Iso2709Chunks {
  /** The chunk being filled. */
  chunk: Buffer;
  private used = 0;
  /** Where the record added last starts in `chunk` (the MARCXML writer of the same records reads it there). */
  lastStart = 0;

  constructor(private readonly chunkBytes = 64 * 1024) {
    this.chunk = Buffer.allocUnsafe(chunkBytes);
  }

  /** Adds a record; gives the chunk it filled, if it had to start another. */
  add(record: MarcRecord): Uint8Array | null {
    const clean = withoutForbidden(record);
    const texts = fieldTexts(clean);
    const bound = upperBound(texts);
    let full: Uint8Array | null = null;
    if (this.used + bound > this.chunk.length) {
      if (this.used > 0) full = this.chunk.subarray(0, this.used);
      this.chunk = Buffer.allocUnsafe(Math.max(this.chunkBytes, bound));
      this.used = 0;
    }
    this.lastStart = this.used;
    this.used += writeRecord(clean, texts, this.chunk, this.used);
    return full;
  }

  /** The last chunk, if it holds anything. */
  end(): Uint8Array | null {
    const last = this.used > 0 ? this.chunk.subarray(0, this.used) : null;
    this.used = 0;
    return last;
  }
}

/**
 * The leader as the ISO 2709 record has it: record length and base address computed, from the
 * bytes of all its text counted at once and the separators' count (without writing the record).
 */
export function iso2709Leader(record: MarcRecord): string {
  const clean = withoutForbidden(record);
  checkStructure(clean);
  const base = LEADER + ENTRY * clean.fields.length + 1;
  let separators = 0;
  let all = "";
  for (const field of clean.fields) {
    const before = all.length;
    const ascii = isControlField(field) ? 1 : 3 + 2 * field.subfields.length;
    if (isControlField(field)) all += field.value;
    else for (const { value } of field.subfields) all += value;
    separators += ascii;
    // Three bytes at most for each UTF-16 unit: most fields need no count of their own against the limit.
    if (ascii + 3 * (all.length - before) > MAX_FIELD_BYTES)
      checkedFieldLength(field, iso2709FieldBytes(field));
  }
  return leaderWith(
    clean.leader,
    checkedRecordLength(base + separators + Buffer.byteLength(all) + 1),
    base,
  );
}

/** The length of the record at `start` in `bytes`, as its leader says (its first five digits). */
export function iso2709Length(bytes: Uint8Array, start: number): number {
  let length = 0;
  for (let i = start; i < start + 5; i++) length = length * 10 + bytes[i]! - 0x30;
  return length;
}

/** The bytes a field takes in ISO 2709 (UTF-8 text, indicators, delimiters, its terminator). */
export const iso2709FieldBytes = (field: Field): number =>
  Buffer.byteLength(fieldText(field, true));

/**
 * A field as ISO 2709 holds it, as text: indicators, each subfield after its delimiter and code,
 * the terminator. `clean`: drop what XML forbids here (else the record had none).
 */
function fieldText(field: Field, clean = false): string {
  const value = clean ? dropForbidden : same;
  if (isControlField(field)) return `${value(field.value)}\x1e`;
  let text = field.ind1 + field.ind2;
  for (const subfield of field.subfields) text += `\x1f${subfield.code}${value(subfield.value)}`;
  return `${text}\x1e`;
}

/** The fields of a record without forbidden characters (withoutForbidden), as text. */
function fieldTexts(record: MarcRecord): string[] {
  checkStructure(record);
  return record.fields.map((field) => fieldText(field));
}

/** At most the bytes a record of these fields takes: three UTF-8 bytes for each UTF-16 unit (a pair makes four). */
function upperBound(texts: readonly string[]): number {
  let bytes = LEADER + ENTRY * texts.length + 2;
  for (const text of texts) bytes += 3 * text.length;
  return bytes;
}

/**
 * Writes `record` (its fields as `texts`) at `at` in `out` (room for upperBound bytes) and gives
 * its length. The data goes in with one write; each field then ends at the next field terminator
 * in the bytes (data never holds one), which gives the directory its lengths in bytes.
 */
function writeRecord(
  record: MarcRecord,
  texts: readonly string[],
  out: Buffer,
  at: number,
): number {
  const base = LEADER + ENTRY * texts.length + 1;
  const data = at + base;
  const end = data + out.write(texts.join(""), data, "utf8");
  let directory = "";
  let start = data;
  for (let i = 0; i < texts.length; i++) {
    const field = record.fields[i]!;
    // A field takes at least a byte a UTF-16 unit, and its only terminator is its last unit: the
    // search starts there (an ASCII field's is found at once).
    let stop = start + texts[i]!.length - 1;
    while (out[stop] !== FT) stop++;
    directory += `${field.tag}${pad4(checkedFieldLength(field, stop + 1 - start))}${pad5(start - data)}`;
    start = stop + 1;
  }
  out[end] = RT;
  const length = checkedRecordLength(end + 1 - at);
  out.write(`${leaderWith(record.leader, length, base)}${directory}\x1e`, at, "latin1");
  return length;
}

function checkedFieldLength(field: Field, bytes: number): number {
  if (bytes > MAX_FIELD_BYTES)
    throw new Error(
      `MARC field ${field.tag} is ${bytes} bytes, over ISO 2709's ${MAX_FIELD_BYTES}: the mapping should have cut it`,
    );
  return bytes;
}

function checkedRecordLength(bytes: number): number {
  if (bytes > MAX_RECORD_BYTES)
    throw new Error(
      `MARC record is ${bytes} bytes, over ISO 2709's ${MAX_RECORD_BYTES}: the mapping should have cut it`,
    );
  return bytes;
}

function leaderWith(leader: string, length: number, base: number): string {
  return `${pad5(length)}${leader.slice(5, 12)}${pad5(base)}${leader.slice(17)}`;
}

// Written out: two of these a field, and padStart showed in the profile.
const same = (text: string) => text;

const pad4 = (n: number) => (n < 10 ? `000${n}` : n < 100 ? `00${n}` : n < 1000 ? `0${n}` : `${n}`);
const pad5 = (n: number) => (n < 10000 ? `0${pad4(n)}` : `${n}`);
