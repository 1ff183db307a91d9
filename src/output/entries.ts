import type { StagedEntry } from "./packed-batch.ts";
import type { FileEntry } from "./sink.ts";

/**
 * Path → entry, each entry kept as one short string and unpacked when read: what FileEntries and
 * ManifestEntries share (they differ in how a string is made and read).
 */
abstract class PackedEntries<T> implements ReadonlyMap<string, T> {
  protected readonly packed = new Map<string, string>();

  protected abstract unpack(packed: string): T;

  get size(): number {
    return this.packed.size;
  }

  get(rel: string): T | undefined {
    const packed = this.packed.get(rel);
    return packed === undefined ? undefined : this.unpack(packed);
  }

  has(rel: string): boolean {
    return this.packed.has(rel);
  }

  keys(): MapIterator<string> {
    return this.packed.keys();
  }

  *values(): MapIterator<T> {
    for (const packed of this.packed.values()) yield this.unpack(packed);
  }

  *entries(): MapIterator<[string, T]> {
    for (const [rel, packed] of this.packed) yield [rel, this.unpack(packed)];
  }

  [Symbol.iterator](): MapIterator<[string, T]> {
    return this.entries();
  }

  forEach(
    callback: (value: T, key: string, map: ReadonlyMap<string, T>) => void,
    thisArg?: unknown,
  ): void {
    for (const [rel, entry] of this.entries()) callback.call(thisArg, entry, rel, this);
  }
}

/**
 * The entries of a version's files, path → StagedEntry, each kept as one short string
 * (the size, MD5 and key separated by tabs, after a `+` for a file this build wrote) rather than
 * an object and its digest strings: a large build keeps hundreds of thousands of entries until it
 * ends, and objects take much more memory. A kept file's string is its previous manifest
 * line's, shared rather than copied (a rebuild keeps nearly every file). Entries are unpacked
 * when read.
 */
export class FileEntries extends PackedEntries<StagedEntry> {
  set(rel: string, entry: StagedEntry): this {
    this.setPacked(rel, packEntry(entry));
    return this;
  }

  /** `set` of a path that has no entry yet (the caller checked): one lookup less. */
  add(rel: string, entry: StagedEntry): void {
    this.packed.set(flat(rel), packEntry(entry));
  }

  /**
   * Records a file kept from the previous version with its manifest line's fields,
   * `size\tmd5\tkey`. `readPath`: `rel` is the manifest's own (a slice of its text, flat already).
   */
  keepFields(rel: string, fields: string, readPath = false): void {
    this.setPacked(rel, fields, readPath);
  }

  private setPacked(rel: string, packed: string, flatPath = false): void {
    this.packed.set(flatPath || this.packed.has(rel) ? rel : flat(rel), packed);
  }

  /** The entry at `rel` as a manifest line's fields, `size\tmd5\tkey` (it must be there). */
  packedFields(rel: string): string {
    const packed = this.packed.get(rel)!;
    return packed[0] === "+" ? packed.slice(1) : packed;
  }

  /** Whether the entry at `rel` was written by this build (false when absent). */
  isFresh(rel: string): boolean {
    return this.packed.get(rel)?.[0] === "+";
  }

  /** Whether the entry at `rel` was written by this build; undefined when there is none (one lookup for both questions). */
  freshness(rel: string): boolean | undefined {
    const packed = this.packed.get(rel);
    return packed === undefined ? undefined : packed[0] === "+";
  }

  /** Every path with whether this build wrote it. */
  *paths(): Generator<[string, boolean]> {
    for (const [rel, packed] of this.packed) yield [rel, packed[0] === "+"];
  }

  /** Entries written by this build. */
  countFresh(): number {
    let fresh = 0;
    for (const packed of this.packed.values()) if (packed[0] === "+") fresh++;
    return fresh;
  }

  protected unpack(packed: string): StagedEntry {
    const fresh = packed[0] === "+";
    return { ...unpackFields(packed, fresh ? 1 : 0), fresh };
  }
}

/**
 * A flat copy of a string built by concatenation. V8 keeps such a string as a tree of its pieces,
 * several times the size of its flat copy: for strings held until the build ends, a cheap copy
 * through a Buffer saves most of their memory. Only strings of code units below 256 (paths, sizes
 * and digests are ASCII), which latin1 copies exactly; others are kept as they are. Reading a
 * character instead (V8 then flattens the tree in place) is cheaper, but the tree is dropped only
 * by a young-generation collection that runs while no major marking does, so a large build's peak
 * would keep them (docs/performance.md#smaller-decisions-in-the-code).
 */
export const flat = (text: string) =>
  BEYOND_LATIN1.test(text) ? text : Buffer.from(text, "latin1").toString("latin1");
// eslint-disable-next-line no-control-regex -- a text beyond Latin-1 is stored as UTF-8
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/** A version's files whose entries can be read as their manifest lines' fields (no unpacking). */
export interface FieldsMap extends ReadonlyMap<string, FileEntry> {
  fields(rel: string): string | undefined;
}

export const hasFields = (files: ReadonlyMap<string, FileEntry>): files is FieldsMap =>
  typeof (files as Partial<FieldsMap>).fields === "function";

/**
 * `size\tmd5\tkey` of an entry (a manifest line's fields), after `mark`. Joined, they are one new
 * flat string (see `flat`), for less than a copy's cost.
 */
export const packFields = ({ size, md5, key }: FileEntry, mark = "") =>
  [`${mark}${size}`, md5 ?? "", key ?? ""].join("\t");

/** An entry of this build as FileEntries keeps it: its fields after a `+` when this build wrote it. */
const packEntry = (entry: StagedEntry) => packFields(entry, entry.fresh ? "+" : "");

/** Whether the packed fields `size\tmd5\tkey` end with this key (compared in place, no substring). */
export function fieldsHaveKey(fields: string, key: string): boolean {
  return (
    key !== "" && fields.endsWith(key) && fields.charCodeAt(fields.length - key.length - 1) === 9
  );
}

/** `size\tmd5\tkey` from `start` in `packed` (an empty field: none). */
export function unpackFields(packed: string, start: number): FileEntry {
  const a = packed.indexOf("\t", start);
  const b = packed.indexOf("\t", a + 1);
  const entry: FileEntry = { size: Number(packed.slice(start, a)) };
  if (b > a + 1) entry.md5 = packed.slice(a + 1, b);
  if (b + 1 < packed.length) entry.key = packed.slice(b + 1);
  return entry;
}

/**
 * The files a manifest lists (src/output/tree.ts, parseManifest), path → its line's
 * `size\tmd5\tkey` as read, unpacked when asked: a rebuild reads two manifests of every file, and
 * an object and three strings per file, all kept to the end of the build, would have the garbage
 * collector copy them about as long as they take to parse.
 */
export class ManifestEntries extends PackedEntries<FileEntry> {
  /** Adds a line's fields (checked by the caller). */
  add(rel: string, fields: string): void {
    this.packed.set(rel, fields);
  }

  /** The line's fields at `rel`, `size\tmd5\tkey`, as read. */
  fields(rel: string): string | undefined {
    return this.packed.get(rel);
  }

  /** Path and fields of every line, in the manifest's order. */
  packedEntries(): MapIterator<[string, string]> {
    return this.packed.entries();
  }

  protected unpack(packed: string): FileEntry {
    return unpackFields(packed, 0);
  }
}
