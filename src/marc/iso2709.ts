import { ChunkBuffers } from "./chunk-buffers.ts";
import {
  checkStructure,
  dropForbidden,
  isControlField,
  isShared,
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
 * before the data (12 bytes a field), so the data goes in first, value by value, and the leader
 * and directory are filled in after.
 */

const FT = 0x1e;
const US = 0x1f;
const RT = 0x1d;
const ENTRY = 12;
const LEADER = 24;

/** The bytes of one record. */
export function iso2709(record: MarcRecord): Uint8Array {
  const clean = withoutForbidden(record);
  checkStructure(clean);
  const buffer = Buffer.allocUnsafe(upperBound(clean));
  return buffer.subarray(0, writeRecord(clean, buffer, 0));
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

  private readonly buffers: ChunkBuffers;

  /** `reuse`: see ChunkBuffers (each chunk must be done with before the next is asked for). */
  constructor(
    private readonly chunkBytes = 64 * 1024,
    reuse = false,
  ) {
    this.chunk = Buffer.allocUnsafe(chunkBytes);
    this.buffers = new ChunkBuffers(reuse);
  }

  /** Adds a record; gives the chunk it filled, if it had to start another. */
  add(record: MarcRecord): Uint8Array | null {
    const clean = withoutForbidden(record);
    checkStructure(clean);
    const full = this.room(upperBound(clean));
    this.used += writeRecord(clean, this.chunk, this.used);
    return full;
  }

  /**
   * Adds a record another file of records has just been given, as its bytes at `start` in
   * `written` (a subset of a set's records: the same bytes, not made again); gives the chunk it
   * filled, if it had to start another.
   */
  addWritten(written: Buffer, start: number): Uint8Array | null {
    const length = iso2709Length(written, start);
    const full = this.room(length);
    this.used += written.copy(this.chunk, this.used, start, start + length);
    return full;
  }

  /** Makes room for `bound` bytes, where the next record starts; gives the chunk it filled, if it had to start another. */
  private room(bound: number): Uint8Array | null {
    let full: Uint8Array | null = null;
    if (this.used + bound > this.chunk.length) {
      if (this.used > 0) full = this.chunk.subarray(0, this.used);
      this.chunk = this.buffers.next(this.chunk, Math.max(this.chunkBytes, bound));
      this.used = 0;
    }
    this.lastStart = this.used;
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
export const iso2709FieldBytes = (field: Field): number => Buffer.byteLength(fieldText(field));

/**
 * A field as ISO 2709 holds it, as text: indicators, each subfield after its delimiter and code,
 * the terminator, without what XML forbids (fit.ts measures fields not yet cleaned).
 */
function fieldText(field: Field): string {
  if (isControlField(field)) return `${dropForbidden(field.value)}\x1e`;
  let text = field.ind1 + field.ind2;
  for (const subfield of field.subfields)
    text += `\x1f${subfield.code}${dropForbidden(subfield.value)}`;
  return `${text}\x1e`;
}

/** At most the bytes a record takes: three UTF-8 bytes for each UTF-16 unit (a pair makes four). */
function upperBound(record: MarcRecord): number {
  let bytes = LEADER + 2;
  for (const field of record.fields) {
    // Its directory entry, indicators and terminator.
    bytes += ENTRY + 3;
    if (isControlField(field)) bytes += 3 * field.value.length;
    else for (const { value } of field.subfields) bytes += 2 + 3 * value.length;
  }
  return bytes;
}

/**
 * Writes `record` (clean, its structure checked) at `at` in `out` (room for upperBound bytes) and
 * gives its length. Each value is encoded straight into `out`, which gives its length in bytes:
 * no text of the fields is made, and the directory's entries are written as bytes (tags are
 * ASCII: checkStructure) once each field's length is known. A shared field's bytes are copied.
 */
function writeRecord(record: MarcRecord, out: Buffer, at: number): number {
  const { fields } = record;
  const base = LEADER + ENTRY * fields.length + 1;
  const data = at + base;
  let entry = at + LEADER;
  let p = data;
  for (const field of fields) {
    const start = p;
    const known = encoded.get(field);
    if (known !== undefined) {
      out.set(known, p);
      p += known.length;
    } else {
      p = writeField(field, out, p);
      if (isShared(field)) encoded.set(field, new Uint8Array(out.subarray(start, p)));
    }
    const { tag } = field;
    out[entry] = tag.charCodeAt(0);
    out[entry + 1] = tag.charCodeAt(1);
    out[entry + 2] = tag.charCodeAt(2);
    writeDigits(out, entry + 3, 4, checkedFieldLength(field, p - start));
    writeDigits(out, entry + 7, 5, start - data);
    entry += ENTRY;
  }
  out[entry] = FT;
  out[p++] = RT;
  const length = checkedRecordLength(p - at);
  out.write(record.leader, at, "latin1");
  writeDigits(out, at, 5, length);
  writeDigits(out, at + 12, 5, base);
  return length;
}

/** The bytes of the shared fields (record.ts) written so far, their terminator included. */
const encoded = new WeakMap<Field, Uint8Array>();

/** Writes one field's bytes at `at` (its indicators, subfields and terminator); gives where they end. */
function writeField(field: Field, out: Buffer, at: number): number {
  let p = at;
  if (isControlField(field)) p += out.write(field.value, p, "utf8");
  else {
    out[p++] = field.ind1.charCodeAt(0);
    out[p++] = field.ind2.charCodeAt(0);
    for (const { code, value } of field.subfields) {
      out[p++] = US;
      out[p++] = code.charCodeAt(0);
      p += out.write(value, p, "utf8");
    }
  }
  out[p++] = FT;
  return p;
}

/** Writes `value` in `count` ASCII digits at `at` (no string made for it). */
function writeDigits(out: Buffer, at: number, count: number, value: number): void {
  for (let i = at + count - 1; i >= at; i--) {
    out[i] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  }
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

const pad4 = (n: number) => (n < 10 ? `000${n}` : n < 100 ? `00${n}` : n < 1000 ? `0${n}` : `${n}`);
const pad5 = (n: number) => (n < 10000 ? `0${pad4(n)}` : `${n}`);
