import type { StagedEntry } from "./batch.ts";
import type { FileEntry } from "./staging.ts";

/**
 * The entries of a version's files, path → StagedEntry, each kept as one short string
 * (`+` or `-` for fresh, the size, MD5 and key separated by tabs) rather than an object and its
 * digest strings: a build of 716,000 files keeps every entry until it ends, and the objects took
 * half again as much memory. Entries are unpacked when read.
 */
export class FileEntries implements ReadonlyMap<string, StagedEntry> {
  private readonly packed = new Map<string, string>();

  get size(): number {
    return this.packed.size;
  }

  set(rel: string, { size, md5, key, fresh }: StagedEntry): this {
    const packed = flat(`${fresh ? "+" : "-"}${size}\t${md5 ?? ""}\t${key ?? ""}`);
    this.packed.set(this.packed.has(rel) ? rel : flat(rel), packed);
    return this;
  }

  get(rel: string): StagedEntry | undefined {
    const packed = this.packed.get(rel);
    return packed === undefined ? undefined : unpack(packed);
  }

  has(rel: string): boolean {
    return this.packed.has(rel);
  }

  /** The entry at `rel` as a manifest line's fields, `size\tmd5\tkey` (it must be there). */
  packedFields(rel: string): string {
    return this.packed.get(rel)!.slice(1);
  }

  /** Whether the entry at `rel` was written by this build (false when absent). */
  isFresh(rel: string): boolean {
    return this.packed.get(rel)?.[0] === "+";
  }

  /** Entries written by this build. */
  countFresh(): number {
    let fresh = 0;
    for (const packed of this.packed.values()) if (packed[0] === "+") fresh++;
    return fresh;
  }

  keys(): MapIterator<string> {
    return this.packed.keys();
  }

  *values(): MapIterator<StagedEntry> {
    for (const packed of this.packed.values()) yield unpack(packed);
  }

  *entries(): MapIterator<[string, StagedEntry]> {
    for (const [rel, packed] of this.packed) yield [rel, unpack(packed)];
  }

  [Symbol.iterator](): MapIterator<[string, StagedEntry]> {
    return this.entries();
  }

  forEach(callback: (value: StagedEntry, key: string, map: ReadonlyMap<string, StagedEntry>) => void, thisArg?: unknown): void {
    for (const [rel, entry] of this.entries()) callback.call(thisArg, entry, rel, this);
  }
}

/**
 * A flat copy of a string built by concatenation. V8 keeps such a string as a tree of its pieces
 * (a path of five pieces took 163 bytes, its flat copy 84): for strings held until the build ends,
 * a copy through a Buffer (under a microsecond) takes 40 % less memory. Only strings of code units
 * below 256 (paths, sizes and digests are ASCII), which latin1 copies exactly; others are kept as they are.
 */
const flat = (text: string) => (BEYOND_LATIN1.test(text) ? text : Buffer.from(text, "latin1").toString("latin1"));
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

function unpack(packed: string): StagedEntry {
  return { ...unpackFields(packed, 1), fresh: packed[0] === "+" };
}

/** `size\tmd5\tkey` from `start` in `packed` (an empty field: none). */
function unpackFields(packed: string, start: number): FileEntry {
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
 * an object and three strings per file, all kept to the end of the build, made the garbage
 * collector copy them about as long as they took to parse.
 */
export class ManifestEntries implements ReadonlyMap<string, FileEntry> {
  private readonly packed = new Map<string, string>();

  /** Adds a line's fields (checked by the caller). */
  add(rel: string, fields: string): void {
    this.packed.set(rel, fields);
  }

  get size(): number {
    return this.packed.size;
  }

  get(rel: string): FileEntry | undefined {
    const packed = this.packed.get(rel);
    return packed === undefined ? undefined : unpackFields(packed, 0);
  }

  has(rel: string): boolean {
    return this.packed.has(rel);
  }

  keys(): MapIterator<string> {
    return this.packed.keys();
  }

  *values(): MapIterator<FileEntry> {
    for (const packed of this.packed.values()) yield unpackFields(packed, 0);
  }

  *entries(): MapIterator<[string, FileEntry]> {
    for (const [rel, packed] of this.packed) yield [rel, unpackFields(packed, 0)];
  }

  [Symbol.iterator](): MapIterator<[string, FileEntry]> {
    return this.entries();
  }

  forEach(callback: (value: FileEntry, key: string, map: ReadonlyMap<string, FileEntry>) => void, thisArg?: unknown): void {
    for (const [rel, entry] of this.entries()) callback.call(thisArg, entry, rel, this);
  }
}
