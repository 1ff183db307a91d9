import { createHash } from "node:crypto";
import { closeSync, copyFileSync, linkSync, mkdirSync, openSync, unlinkSync, writeFileSync, writeSync, writevSync } from "node:fs";
import path from "node:path";

/**
 * A batch of output files packed one after the other into one buffer. The main thread packs
 * them (serialising is its job); a writer thread hashes and writes them (src/workers/writer.ts),
 * or the main thread itself when the build is too small to be worth a thread.
 */
export interface BatchFile {
  rel: string;
  /** Where its bytes are in the batch: (offset, size) pairs, in order. */
  segments: number[];
  size: number;
  key?: string;
  /** Size and identity (key of a keyed file, else MD5) of the previous version's file at `rel`, if known. */
  previous?: { size: number; id: string };
  /** The same of the file already at `rel` in staging (a recycled version's), if any. */
  inStaging?: { size: number; id: string };
}

/** A file of the new version: `fresh` when this build wrote its bytes, else kept from the previous one. */
export interface StagedEntry {
  size: number;
  /** Absent for keyed files (their key stands for their bytes; see FileEntry). */
  md5?: string;
  /** For files written with a key: the digest of what their bytes are made from. */
  key?: string;
  fresh: boolean;
}

export interface BatchResult {
  entries: [string, StagedEntry][];
  bytesWritten: number;
}

/**
 * Hashes every file of the batch that has no key and writes those whose bytes differ from the
 * previous version's (by key or MD5) into `staging`. Synchronous on purpose: for tens of thousands of small files, sync calls
 * measured 2.5x faster than promise-based ones (no thread-pool round trip per open, write, close).
 * `madeDirs` remembers the folders this thread has created.
 */
export function writeBatch(staging: string, bytes: Uint8Array, files: readonly BatchFile[], madeDirs: Set<string>): BatchResult {
  const entries: [string, StagedEntry][] = [];
  let bytesWritten = 0;
  for (const file of files) {
    const views: Uint8Array[] = [];
    for (let i = 0; i < file.segments.length; i += 2) views.push(bytes.subarray(file.segments[i]!, file.segments[i]! + file.segments[i + 1]!));
    const md5 = file.key === undefined ? md5Of(views) : undefined;
    const id = file.key ?? md5!;
    const fresh = differs(file.previous, id, file.size);
    entries.push([file.rel, { size: file.size, md5, key: file.key, fresh }]);
    if (!fresh) continue;
    bytesWritten += file.size;
    const { inStaging } = file;
    if (inStaging !== undefined) {
      // A recycled version already holds these bytes here (a change undone): nothing to write.
      if (!differs(inStaging, id, file.size)) continue;
      removeStale(`${staging}/${file.rel}`);
    }
    makeParentDir(staging, file.rel, madeDirs);
    writeViews(`${staging}/${file.rel}`, views, file.size);
  }
  return { entries, bytesWritten };
}

/** Whether a file of `size` bytes identified by `id` (its key, else its MD5) differs from `held`, another version's file at its path (none: it differs). */
export const differs = (held: { size: number; id: string } | undefined, id: string, size: number) => held === undefined || held.id !== id || held.size !== size;

function md5Of(views: readonly Uint8Array[]): string {
  const hash = createHash("md5");
  for (const view of views) hash.update(view);
  return hash.digest("hex");
}

/**
 * Writes a new file from its pieces with one writev (a file in one piece: one write). `wx`: an
 * existing file is never written into (it may share its inode with the current version's).
 */
function writeViews(file: string, views: Uint8Array[], size: number): void {
  if (views.length === 1) return writeFileSync(file, views[0]!, { flag: "wx" });
  const fd = openSync(file, "wx");
  try {
    let written = writevSync(fd, views);
    // writev may stop short (a full disk reports its error on the retry).
    if (written < size) writeSync(fd, Buffer.concat(views).subarray(written));
  } finally {
    closeSync(fd);
  }
}

/**
 * Hard-links the previous version's files at `rels` into `staging` (a copy where links are not
 * allowed): unchanged files cost no bytes and keep their inode and mtime. A file of a recycled
 * version in the way is removed first.
 */
export function linkFiles(previousDir: string, staging: string, rels: readonly string[], madeDirs: Set<string>): void {
  for (const rel of rels) {
    makeParentDir(staging, rel, madeDirs);
    const from = `${previousDir}/${rel}`;
    const to = `${staging}/${rel}`;
    try {
      linkSync(from, to);
    } catch (error) {
      removeStale(to);
      if ((error as NodeJS.ErrnoException).code === "EEXIST") linkSync(from, to);
      else copyFileSync(from, to); // another file system, or links not allowed
    }
  }
}

/**
 * Removes a recycled version's file before its path gets other bytes. Never write into it: it
 * may be a hard link to the same inode as the current version's file, which a server is reading.
 */
export function removeStale(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Creates the folder `rel` goes in under `root`, once per folder (`madeDirs` remembers them). */
export function makeParentDir(root: string, rel: string, madeDirs: Set<string>): void {
  const dir = path.dirname(rel);
  if (dir === "." || madeDirs.has(dir)) return;
  mkdirSync(`${root}/${dir}`, { recursive: true });
  madeDirs.add(dir);
}

/**
 * A batch's file list as it crosses to a writer thread: one string and one array of numbers,
 * copied in two memcpy-like steps. Posted as objects, tens of thousands of small objects per
 * build cost the main thread about half a second of structured cloning.
 */
export interface PackedFiles {
  /** Per file: rel, key, previous identity and staging identity (empty when absent), each ending with a NUL (no path holds one). */
  text: string;
  /** Per file: size, previous size, staging size (-1 when absent), segment count, then the segments. */
  numbers: Float64Array;
}

export function packFiles(files: readonly BatchFile[]): PackedFiles {
  let text = "";
  let count = 0;
  for (const file of files) count += 4 + file.segments.length;
  const numbers = new Float64Array(count);
  let at = 0;
  for (const { rel, key, previous, inStaging, size, segments } of files) {
    text += `${rel}\0${key ?? ""}\0${previous?.id ?? ""}\0${inStaging?.id ?? ""}\0`;
    numbers[at++] = size;
    numbers[at++] = previous?.size ?? -1;
    numbers[at++] = inStaging?.size ?? -1;
    numbers[at++] = segments.length;
    for (const n of segments) numbers[at++] = n;
  }
  return { text, numbers };
}

export function unpackFiles({ text, numbers }: PackedFiles): BatchFile[] {
  const fields = text.split("\0");
  const files: BatchFile[] = [];
  for (let f = 0, at = 0; at < numbers.length; f += 4) {
    const key = fields[f + 1]!;
    const size = numbers[at++]!;
    const previousSize = numbers[at++]!;
    const stagingSize = numbers[at++]!;
    // A plain loop: a typed subarray and Array.from per file were a tenth of a writer's time.
    const segments: number[] = [];
    const end = at + 1 + numbers[at]!;
    for (at++; at < end; at++) segments.push(numbers[at]!);
    // Every file of one shape, absent fields undefined: objects of several shapes made the
    // writer's loop polymorphic, and V8 compiled it again for each new one.
    files.push({
      rel: fields[f]!,
      segments,
      size,
      key: key === "" ? undefined : key,
      previous: previousSize < 0 ? undefined : { size: previousSize, id: fields[f + 2]! },
      inStaging: stagingSize < 0 ? undefined : { size: stagingSize, id: fields[f + 3]! },
    });
  }
  return files;
}

/** A batch's result as it comes back: the MD5s of the files without a key, in order (32 characters each), and which files are fresh. */
export interface PackedResult {
  md5s: string;
  fresh: Uint8Array;
  bytesWritten: number;
}

export function packResult({ entries, bytesWritten }: BatchResult): PackedResult {
  return { md5s: entries.map(([, entry]) => entry.md5 ?? "").join(""), fresh: Uint8Array.from(entries, ([, entry]) => (entry.fresh ? 1 : 0)), bytesWritten };
}

/**
 * The entries of the batch `files` without a key, from its packed result (the main thread
 * recorded the keyed files' entries when it handed them over: src/output/staging.ts).
 */
export function unpackResult(files: readonly BatchFile[], { md5s, fresh, bytesWritten }: PackedResult): BatchResult {
  let at = 0;
  const entries: [string, StagedEntry][] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (file.key === undefined) entries.push([file.rel, { size: file.size, md5: md5s.slice(at, (at += 32)), fresh: fresh[i] === 1 }]);
  }
  return { entries, bytesWritten };
}
