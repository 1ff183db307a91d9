import * as fs from "node:fs/promises";
import path from "node:path";
import { availableParallelism } from "node:os";
import { MANIFEST_PATH } from "./catalogue-paths.ts";
import type { FileData, FileEntry, FileSink, Produced } from "./sink.ts";
import { StagingWriter, type StagingOptions } from "./staging.ts";
import type { ThreadJob } from "./writer-pool.ts";
import { writeFailure } from "./write-failure.ts";
import { isAlive, versionsFolder } from "./versions-folder.ts";
import {
  currentVersion,
  holdVersion,
  previousManifest,
  recycleOldVersion,
  releaseLock,
  takeLock,
} from "./version-store.ts";
import type { FileEntries } from "./entries.ts";
import { manifestText, parseManifest, readManifest, writeManifest } from "./manifest.ts";

export { MANIFEST_PATH, manifestText, parseManifest, readManifest, type FileEntry };
export { holdVersion, isAlive };

/**
 * The output folder, written atomically and incrementally.
 *
 * `OUT` is a symbolic link to a complete version in `.OUT.versions/<id>`. A build writes a new
 * version beside it and then replaces the link in one rename, so a killed or failed build leaves
 * the previous output whole, and a server reading `OUT` always sees one complete version. Files
 * whose bytes did not change are hard links to the previous version's files: not rewritten (same
 * inode and mtime), and no extra disk space. A build that changes nothing swaps nothing.
 *
 * Two versions are kept: the current one and the one before it. A build recycles the older one
 * as its staging folder instead of deleting it and linking every unchanged file again: only the
 * files that differ between that version and the new one are touched (for a one-title rename,
 * about 10,000 of 130,000 files instead of removing 130,000 and linking 120,000). Its files are
 * never written into (they may be hard links to the current version's): a file with other bytes
 * is removed and written anew.
 *
 * `_catalogue/files.tsv` lists every file with its size, and its key when it was written with one
 * (a digest of what its bytes are made from), else its MD5. Publishing compares MD5s with what S3
 * reports as ETags: it takes a keyed file's MD5 from the target's own record of that key, and
 * hashes only the files it has no record of (publish/digests.ts).
 */

export interface TreeSummary {
  files: number;
  written: number;
  unchanged: number;
  removed: number;
  bytesWritten: number;
}

/**
 * The writing goes to a StagingWriter (staging.ts), which this class holds: the tree adds the
 * versions around it (the lock, the previous and recycled versions, the commit's rename) and
 * hands the stages the staging folder's FileSink.
 */
export class OutputTree implements FileSink {
  readonly outDir: string;
  private readonly versionsDir: string;
  private readonly id: string;
  private readonly previousDir: string | null;
  private readonly files: StagingWriter;
  private released = false;

  private constructor(
    outDir: string,
    versionsDir: string,
    id: string,
    previousDir: string | null,
    previous: ReadonlyMap<string, FileEntry>,
    options: StagingOptions,
  ) {
    this.files = new StagingWriter(path.join(versionsDir, `${id}.tmp`), previous, options);
    this.outDir = outDir;
    this.versionsDir = versionsDir;
    this.id = id;
    this.previousDir = previousDir;
  }

  /** Opens OUT for a new build: takes the lock, finds the previous version, prepares staging. */
  static async open(outDir: string, options: StagingOptions = {}): Promise<OutputTree> {
    const out = path.resolve(outDir);
    const versionsDir = versionsFolder(out);
    try {
      await fs.mkdir(versionsDir, { recursive: true });
      await takeLock(versionsDir);
    } catch (error) {
      throw writeFailure(error, versionsDir);
    }
    try {
      const previousDir = await currentVersion(out, versionsDir);
      const previous =
        previousDir === null ? new Map<string, FileEntry>() : await previousManifest(previousDir);
      const id = `${new Date().toISOString().replace(/[-:.]/g, "")}-${process.pid}`;
      const recycled = await recycleOldVersion(
        versionsDir,
        previousDir,
        path.join(versionsDir, `${id}.tmp`),
        previous,
      );
      // One writer thread per core: they hash and write while this thread serialises.
      const tree = new OutputTree(out, versionsDir, id, previousDir, previous, {
        threads: Math.min(4, availableParallelism()),
        previousDir: previousDir ?? undefined,
        recycled: recycled ?? undefined,
        ...options,
      });
      if (recycled === null) await fs.mkdir(tree.files.staging);
      return tree;
    } catch (error) {
      await releaseLock(versionsDir);
      throw writeFailure(error, versionsDir);
    }
  }

  /** The folder the new version is written into until the commit renames it. */
  get staging(): string {
    return this.files.staging;
  }

  /** The files of the previous version (path → size, and key or MD5). */
  previousFiles(): ReadonlyMap<string, FileEntry> {
    return this.files.previous;
  }

  /** The bytes of a file of the previous version, or null. */
  async readPrevious(rel: string): Promise<Buffer | null> {
    if (this.previousDir === null || !this.files.previous.has(rel)) return null;
    return fs.readFile(path.join(this.previousDir, rel)).catch(() => null);
  }

  /** Keeps files of the previous version that this build does not produce (`--domain`). */
  keepPrevious(keep: (rel: string) => boolean): void {
    this.files.keepPrevious(keep);
  }

  // The staging folder's FileSink, and what the build asks of its writing (see StagingWriter).
  write(rel: string, data: FileData, key?: string): Promise<void> {
    return this.files.write(rel, data, key);
  }
  writeKeyed(rel: string, key: string, file: Produced): Promise<void> | undefined {
    return this.files.writeKeyed(rel, key, file);
  }
  reuse(rel: string, key: string): boolean {
    return this.files.reuse(rel, key);
  }
  copyFrom(rel: string, source: string, key?: string): Promise<void> {
    return this.files.copyFrom(rel, source, key);
  }
  moveFrom(rel: string, source: string, key?: string): Promise<void> {
    return this.files.moveFrom(rel, source, key);
  }
  has(rel: string): boolean {
    return this.files.has(rel);
  }
  flush(): Promise<void> {
    return this.files.flush();
  }
  /** Entries of the files handed over so far (see StagingWriter.entries). */
  get entries(): FileEntries {
    return this.files.entries;
  }
  /** How many files this build holds so far (written, kept, or in a batch). */
  get held(): number {
    return this.files.held;
  }
  runInThread(job: ThreadJob): Promise<void> {
    return this.files.runInThread(job);
  }
  startThreads(): void {
    this.files.startThreads();
  }
  get threadsStarted(): boolean {
    return this.files.threadsStarted;
  }

  /** Makes the new version current in one rename. */
  async commit(): Promise<TreeSummary> {
    const { files } = this;
    try {
      await files.settle();
      const { entries } = files;
      const written = entries.countFresh();
      const removed = [...files.previous.keys()].filter((rel) => !entries.has(rel)).length;
      const summary = {
        files: entries.size,
        written,
        unchanged: entries.size - written,
        removed,
        bytesWritten: files.bytesWritten,
      };
      const unchanged =
        written === 0 && removed === 0 && this.previousDir !== null && (await isLink(this.outDir));
      if (unchanged && files.recycledCount === 0) {
        await fs.rm(files.staging, { recursive: true, force: true });
        return summary;
      }
      await files.complete();
      const manifest = path.join(files.staging, MANIFEST_PATH);
      await fs.mkdir(path.dirname(manifest), { recursive: true });
      await writeManifest(manifest, entries);
      const finalDir = path.join(this.versionsDir, this.id);
      await fs.rename(files.staging, finalDir);
      // Nothing changed: the current version stays, and this finished copy of it is the older
      // version that the next build recycles (deleting it would throw its files away).
      if (!unchanged) await this.switchTo(finalDir);
      return summary;
    } catch (error) {
      await this.abort();
      throw writeFailure(error, this.versionsDir);
    } finally {
      await this.release();
    }
  }

  /** Drops the new version; the previous output stays as it was. */
  async abort(): Promise<void> {
    await this.files.close();
    await fs.rm(this.files.staging, { recursive: true, force: true });
    await this.release();
  }

  private async switchTo(finalDir: string): Promise<void> {
    const target = path.relative(path.dirname(this.outDir), finalDir);
    const link = `${this.outDir}.${this.id}.link`;
    await fs.symlink(target, link);
    const stat = await fs.lstat(this.outDir).catch(() => null);
    if (stat?.isDirectory()) {
      // A real folder (an older layout or an unpacked copy we adopted) becomes a version first.
      await fs.rename(this.outDir, path.join(this.versionsDir, `${this.id}-adopted`));
    }
    await fs.rename(link, this.outDir);
  }

  private async release() {
    if (this.released) return;
    this.released = true;
    await releaseLock(this.versionsDir);
  }
}

async function isLink(file: string): Promise<boolean> {
  return (await fs.lstat(file).catch(() => null))?.isSymbolicLink() ?? false;
}
