import * as fs from "node:fs/promises";
import path from "node:path";
import { flat, ManifestEntries, packFields, unpackFields, type FileEntries } from "./entries.ts";
import { MANIFEST_PATH } from "./catalogue-paths.ts";
import type { FileEntry } from "./sink.ts";

/**
 * A version's manifest, `_catalogue/files.tsv`: what it holds, path by path (size, MD5 of files
 * without a key, key of the others). Written at each commit, read by the next build (twice: the
 * current version's and the recycled one's), by publish and by serve.
 */

/** The manifest's first line, its columns: a file that does not start with it is not read as one. */
const MANIFEST_HEADER = "path\tsize\tmd5\tkey\n";

/**
 * The manifest's text: a header, then a line per file sorted by path (the default sort compares
 * UTF-16 code units, without a callback per comparison) with its size, MD5 and key separated by
 * tabs (an empty field: none). Tab-separated rather than JSON: a rebuild reads two manifests of
 * every file and writes one, and JSON cost much more both ways. Paths never hold a
 * tab or a line break (StagingWriter.claim refuses them).
 */
export function manifestText(entries: ReadonlyMap<string, FileEntry>): string {
  const lines: string[] = [MANIFEST_HEADER];
  for (const rel of [...entries.keys()].sort()) lines.push(manifestLine(rel, entries.get(rel)!));
  return lines.join("");
}

const manifestLine = (rel: string, entry: FileEntry) => `${rel}\t${packFields(entry)}\n`;

/** Bytes of manifest text written at a time (a large build's text is too large as one string). */
const MANIFEST_CHUNK = 1 << 20;

/** Writes manifestText(entries) into `file`, a piece at a time. */
export async function writeManifest(file: string, entries: FileEntries): Promise<void> {
  const handle = await fs.open(file, "w");
  // Each chunk is encoded into the same buffer: a new megabyte per chunk is memory touched for
  // the first time, a page fault per 4 KB (see batches.ts, BATCH_BYTES).
  let buffer = Buffer.allocUnsafeSlow(0);
  const write = async (chunk: string) => {
    const size = Buffer.byteLength(chunk);
    if (size > buffer.length)
      buffer = Buffer.allocUnsafeSlow(Math.max(size, MANIFEST_CHUNK + (64 << 10)));
    buffer.write(chunk);
    await handle.writeFile(buffer.subarray(0, size));
  };
  try {
    let chunk = MANIFEST_HEADER;
    for (const rel of [...entries.keys()].sort()) {
      // The entry's packed text is the line's fields after its fresh mark (as manifestLine writes them).
      chunk += `${rel}\t${entries.packedFields(rel)}\n`;
      if (chunk.length >= MANIFEST_CHUNK) {
        await write(chunk);
        chunk = "";
      }
    }
    await write(chunk);
  } finally {
    await handle.close();
  }
}

/** The files a manifest lists; throws on a text that is not a manifest (naming the line). */
export function parseManifest(text: string): ManifestEntries {
  const entries = new ManifestEntries();
  scanManifest(text, (rel, fields) => entries.add(rel, fields));
  return entries;
}

/** Calls `line` with each line's path and fields (`size\tmd5\tkey`); throws on a text that is not a manifest. */
function scanManifest(text: string, line: (rel: string, fields: string) => void): void {
  if (!text.startsWith(MANIFEST_HEADER))
    throw new Error(
      `not a catalogue manifest (its first line is not ${JSON.stringify(MANIFEST_HEADER)})`,
    );
  // Scanned with indexOf: split() would make an array per line.
  let number = 2;
  for (let start = MANIFEST_HEADER.length; start < text.length; number++) {
    const end = text.indexOf("\n", start);
    const a = text.indexOf("\t", start);
    const b = a < 0 ? -1 : text.indexOf("\t", a + 1);
    const c = b < 0 ? -1 : text.indexOf("\t", b + 1);
    const d = c < 0 ? -1 : text.indexOf("\t", c + 1);
    if (
      end < 0 ||
      a <= start ||
      c < 0 ||
      c > end ||
      (d >= 0 && d < end) ||
      b === a + 1 ||
      !isSize(text, a + 1, b)
    ) {
      throw new Error(`the manifest's line ${number} is not "path<TAB>size<TAB>md5<TAB>key"`);
    }
    line(text.slice(start, a), text.slice(a + 1, end));
    start = end + 1;
  }
}

/** Whether text[from, to) is a size: decimal digits, a safe integer. */
function isSize(text: string, from: number, to: number): boolean {
  if (to - from > 15) return false; // beyond Number.MAX_SAFE_INTEGER's 16 digits, or close to it
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** The files of the build in `dir`, from its manifest; throws when it has none or it is unreadable. */
export async function readManifest(dir: string): Promise<ManifestEntries> {
  return parseManifest(await fs.readFile(path.join(dir, MANIFEST_PATH), "utf8"));
}

/**
 * The manifest of `dir` read against `base`, another version's files (both sorted by path, as
 * manifestText writes them): equal lines are `base`'s, so only the paths where they differ are
 * kept. A rebuild reads the manifest of the version it recycles, which differs from the current
 * one by what the last build changed: walking both costs a comparison per path, where a second
 * map of every file took a hash per path and the memory of a second copy. Throws on a text that
 * is not a manifest; a text out of order is read whole (parseManifest).
 */
export async function readManifestAgainst(
  dir: string,
  base: ManifestEntries,
): Promise<ReadonlyMap<string, FileEntry>> {
  const text = await fs.readFile(path.join(dir, MANIFEST_PATH), "utf8");
  const changed = new Map<string, string | null>();
  const theirs = base.packedEntries();
  // Assigned by step() below, before any read.
  let next!: IteratorResult<[string, string]>;
  let ordered = true;
  let lastBase = "";
  const step = () => {
    next = theirs.next();
    if (next.done) return;
    if (next.value[0] <= lastBase) ordered = false;
    lastBase = next.value[0];
  };
  step();
  let last = "";
  scanManifest(text, (rel, fields) => {
    if (!ordered || rel <= last) return void (ordered = false);
    last = rel;
    for (; !next.done && next.value[0] < rel; step()) changed.set(next.value[0], null);
    if (!next.done && next.value[0] === rel) {
      if (next.value[1] !== fields) changed.set(flat(rel), flat(fields));
      step();
    } else changed.set(flat(rel), flat(fields));
  });
  for (; ordered && !next.done; step()) changed.set(next.value[0], null);
  // Either text out of order would be walked wrong: read whole.
  if (!ordered) return parseManifest(text);
  return new ManifestOverlay(base, changed);
}

/** Another version's entries as `base`'s, except at the paths of `changed` (null: absent here). */
export class ManifestOverlay implements ReadonlyMap<string, FileEntry> {
  readonly size: number;

  constructor(
    private readonly base: ManifestEntries,
    private readonly changed: ReadonlyMap<string, string | null>,
  ) {
    let size = base.size;
    for (const [rel, fields] of changed)
      size += (fields === null ? -1 : 0) + (base.has(rel) ? 0 : 1);
    this.size = size;
  }

  /** The fields (`size\tmd5\tkey`) at `rel`. */
  fields(rel: string): string | undefined {
    const own = this.changed.get(rel);
    return own === undefined ? this.base.fields(rel) : (own ?? undefined);
  }

  get(rel: string): FileEntry | undefined {
    const fields = this.fields(rel);
    return fields === undefined ? undefined : unpackFields(fields, 0);
  }

  has(rel: string): boolean {
    return this.fields(rel) !== undefined;
  }

  *keys(): MapIterator<string> {
    for (const rel of this.base.keys()) if (this.changed.get(rel) !== null) yield rel;
    for (const [rel, fields] of this.changed) if (fields !== null && !this.base.has(rel)) yield rel;
  }

  *values(): MapIterator<FileEntry> {
    for (const rel of this.keys()) yield this.get(rel)!;
  }

  *entries(): MapIterator<[string, FileEntry]> {
    for (const rel of this.keys()) yield [rel, this.get(rel)!];
  }

  [Symbol.iterator](): MapIterator<[string, FileEntry]> {
    return this.entries();
  }

  forEach(
    callback: (value: FileEntry, key: string, map: ReadonlyMap<string, FileEntry>) => void,
    thisArg?: unknown,
  ): void {
    for (const [rel, entry] of this.entries()) callback.call(thisArg, entry, rel, this);
  }
}

/** The lines of a file's bytes (a manifest's: its files, and its header line). */
export function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
  return lines;
}
