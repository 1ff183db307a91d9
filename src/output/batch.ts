import { createHash } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  openSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  writevSync,
} from "node:fs";
import path from "node:path";
import {
  forEachPackedFile,
  ResultPacker,
  type Identity,
  type PackedFiles,
  type PackedResult,
} from "./packed-batch.ts";

/**
 * A batch of output files packed one after the other into one buffer. The main thread packs
 * them (serialising is its job); a writer thread hashes and writes them (src/output/writer-thread.ts),
 * or the main thread itself when the build is too small to be worth a thread.
 */

/**
 * Hashes every file of the batch that has no key and writes those whose bytes differ from the
 * previous version's (by key or MD5) into `staging`. Synchronous on purpose: for tens of thousands
 * of small files, a thread-pool round trip per open, write and close costs more than the calls
 * (docs/performance.md#smaller-decisions-in-the-code).
 * `madeDirs` remembers the folders this thread has created. The files are read from their packed
 * form (packed-batch.ts) as they are written.
 */
export function writeBatch(
  staging: string,
  bytes: Uint8Array,
  packed: PackedFiles,
  madeDirs: Set<string>,
): PackedResult {
  const result = new ResultPacker();
  forEachPackedFile(
    packed,
    bytes,
    ({ rel, key, size, previousSize, previousId, stagingSize, stagingId, views }) => {
      let id = key;
      if (key === "") id = md5Of(views);
      const changed = !sameFile(previousSize, previousId, id, size);
      if (key === "") result.add(id, changed);
      if (!changed) return;
      result.bytesWritten += size;
      if (stagingSize >= 0) {
        // A recycled version already holds these bytes here (a change undone): nothing to write.
        if (sameFile(stagingSize, stagingId, id, size)) return;
        removeStale(`${staging}/${rel}`);
      }
      makeParentDir(staging, rel, madeDirs);
      writeViews(`${staging}/${rel}`, views, size);
    },
  );
  return result.packed();
}

/**
 * Whether another version's file at a path, of `heldSize` bytes (negative: there is none) and
 * identity `heldId`, holds the bytes of a file of `size` bytes identified by `id` (its key, else
 * its MD5). The writer reads the held file's fields from a packed batch, the main thread from an
 * Identity (`differs`).
 */
const sameFile = (heldSize: number, heldId: string, id: string, size: number) =>
  heldSize >= 0 && heldId === id && heldSize === size;

/** Whether a file of `size` bytes identified by `id` differs from `held`, another version's file at its path (none: it differs). */
export const differs = (held: Identity | undefined, id: string, size: number) =>
  held === undefined || !sameFile(held.size, held.id, id, size);

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
    const written = writevSync(fd, views);
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
export function linkFiles(
  previousDir: string,
  staging: string,
  rels: readonly string[],
  madeDirs: Set<string>,
): void {
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
