import * as fs from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { availableParallelism } from "node:os";
import { MANIFEST_PATH } from "./records.ts";
import type { FileData, FileEntry, FileSink, Produced } from "./sink.ts";
import { StagingWriter, type StagingOptions } from "./staging.ts";
import type { ThreadJob } from "./writer-pool.ts";
import { writeFailure } from "./write-failure.ts";
import { CONTENT_DIGESTS, isAlive, NAME_ORDERS, versionsFolder } from "./versions.ts";
import { ManifestEntries, type FileEntries } from "./entries.ts";
import { manifestText, parseManifest, readManifest, readManifestAgainst, writeManifest } from "./manifest.ts";

export { MANIFEST_PATH, manifestText, parseManifest, readManifest, type FileEntry };
export { isAlive };

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

  private constructor(outDir: string, versionsDir: string, id: string, previousDir: string | null, previous: ReadonlyMap<string, FileEntry>, options: StagingOptions) {
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
      const previous = previousDir === null ? new Map<string, FileEntry>() : await previousManifest(previousDir);
      const id = `${new Date().toISOString().replace(/[-:.]/g, "")}-${process.pid}`;
      const recycled = await recycleOldVersion(versionsDir, previousDir, path.join(versionsDir, `${id}.tmp`), previous);
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
      const summary = { files: entries.size, written, unchanged: entries.size - written, removed, bytesWritten: files.bytesWritten };
      const unchanged = written === 0 && removed === 0 && this.previousDir !== null && (await isLink(this.outDir));
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

/** The folder OUT currently shows, or null when there is no previous output. */
async function currentVersion(out: string, versionsDir: string): Promise<string | null> {
  const stat = await fs.lstat(out).catch(() => null);
  if (stat === null) return null;
  if (stat.isSymbolicLink()) {
    const target = await fs.realpath(out).catch(() => null);
    if (target === null) return null;
    if (path.dirname(target) !== (await fs.realpath(versionsDir))) {
      throw new UserError(`${out} is a link to ${target}, not a catalogue build: remove it or choose another --out`);
    }
    return target;
  }
  if (stat.isDirectory()) {
    const names = await fs.readdir(out);
    if (names.length === 0) {
      await fs.rmdir(out);
      return null;
    }
    if (names.includes("_catalogue")) return out;
    throw new UserError(`${out} exists and is not a catalogue build: remove it or choose another --out`);
  }
  throw new UserError(`${out} exists and is not a folder: remove it or choose another --out`);
}

/** Where `holdVersion` marks the versions being read, in the versions folder. */
const READERS = "readers";

/**
 * Marks the version `dir` as being read (by `catalogue publish`) until the returned function is
 * called: builds neither recycle nor remove it meanwhile. A marker left by a process that is gone
 * holds nothing. A folder that is not a version (an adopted or copied output) needs no marker.
 */
export async function holdVersion(dir: string): Promise<() => Promise<void>> {
  const versionsDir = path.dirname(dir);
  if (!path.basename(versionsDir).endsWith(".versions")) return async () => {};
  const marker = path.join(versionsDir, READERS, `${path.basename(dir)}.${process.pid}`);
  await fs.mkdir(path.dirname(marker), { recursive: true });
  await fs.writeFile(marker, "");
  return () => fs.rm(marker, { force: true });
}

/** The versions a live process holds (see holdVersion); markers of dead processes are removed. */
async function heldVersions(versionsDir: string): Promise<Set<string>> {
  const held = new Set<string>();
  for (const marker of await fs.readdir(path.join(versionsDir, READERS)).catch(() => [])) {
    const dot = marker.lastIndexOf(".");
    if (isAlive(Number(marker.slice(dot + 1)))) held.add(marker.slice(0, dot));
    else await fs.rm(path.join(versionsDir, READERS, marker), { force: true });
  }
  return held;
}

/**
 * Turns the newest version older than the current one into the staging folder `staging`, and
 * returns its files (from its manifest); removes any other old version and abandoned staging
 * folder. Versions being read (holdVersion) are left alone. Null when there is none to recycle.
 */
async function recycleOldVersion(versionsDir: string, current: string | null, staging: string, currentFiles: ReadonlyMap<string, FileEntry>): Promise<ReadonlyMap<string, FileEntry> | null> {
  const names = await fs.readdir(versionsDir);
  const keep = current === null ? "" : path.basename(current);
  const held = await heldVersions(versionsDir);
  const old = names.filter((n) => n !== "lock" && n !== READERS && !n.startsWith(CONTENT_DIGESTS) && !n.startsWith(NAME_ORDERS) && n !== keep && !held.has(n)).sort();
  const newestOld = old.filter((n) => !n.endsWith(".tmp")).at(-1);
  for (const name of old) {
    if (name !== newestOld) await fs.rm(path.join(versionsDir, name), { recursive: true, force: true });
  }
  if (newestOld === undefined) return null;
  const dir = path.join(versionsDir, newestOld);
  // Read against the current version's, which differs from it by what the last build changed.
  const files = currentFiles instanceof ManifestEntries && currentFiles.size > 0 ? await readManifestAgainst(dir, currentFiles).catch(() => new ManifestEntries()) : await previousManifest(dir);
  if (files.size === 0) {
    // No manifest to say what it holds: not worth trusting.
    await fs.rm(dir, { recursive: true, force: true });
    return null;
  }
  await fs.rename(dir, staging);
  // From now on its manifest would lie. A build killed from here leaves a staging folder, which
  // the next build removes rather than recycles.
  await fs.rm(path.join(staging, MANIFEST_PATH));
  return files;
}

/** The previous files, or none when the manifest is missing or unreadable: every file then counts as changed (correct, only slower). */
const previousManifest = (dir: string): Promise<ReadonlyMap<string, FileEntry>> => readManifest(dir).catch(() => new ManifestEntries());

/** One build at a time per output folder; a lock left by a dead process is taken over. */
async function takeLock(versionsDir: string) {
  const lock = path.join(versionsDir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(lock, String(process.pid), { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(await fs.readFile(lock, "utf8").catch(() => "0"));
      if (pid > 0 && isAlive(pid)) {
        throw new UserError(`another build (process ${pid}) is writing this output; wait for it or remove ${lock}`);
      }
      await fs.rm(lock, { force: true });
    }
  }
  throw new UserError(`cannot take the lock ${lock}`);
}

async function releaseLock(versionsDir: string) {
  await fs.rm(path.join(versionsDir, "lock"), { force: true });
}

