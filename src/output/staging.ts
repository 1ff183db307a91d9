import { copyFileSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { BATCH_BYTES, Batches } from "./batches.ts";
import type { ThreadJob } from "./writer-pool.ts";
import { FileEntries, fieldsHaveKey, hasFields, packFields } from "./entries.ts";
import { MANIFEST_PATH } from "./catalogue-paths.ts";
import { RecycledVersion } from "./recycled.ts";
import { differs, makeParentDir, removeStale } from "./batch.ts";
import type { BatchResult, Identity, StagedEntry } from "./packed-batch.ts";
import {
  sameBytes,
  type FileData,
  type FileEntry,
  type FilePart,
  type FileSink,
  type Produced,
} from "./sink.ts";
import { hashFile } from "../util/hash.ts";
import { writeFailure } from "./write-failure.ts";

/**
 * What a writer thread compares a new file with: the key of a keyed file, the MD5 of another
 * (undefined when the entry has none to compare: the file counts as different).
 */
function identity(entry: FileEntry | undefined, key: string | undefined): Identity | undefined {
  const id = key === undefined ? entry?.md5 : entry?.key;
  return id === undefined ? undefined : { size: entry!.size, id };
}

export interface StagingOptions {
  /** Bytes packed before a batch goes to a writer thread (a smaller output is written here). */
  batchBytes?: number;
  /** Writer threads, started when the first batch fills. */
  threads?: number;
  /** The previous version's folder, from which kept files are hard-linked. */
  previousDir?: string;
  /**
   * The files already in the staging folder: an older version recycled as the new one (see
   * OutputTree.open). Those that hold the right bytes stay; the others are replaced or removed.
   */
  recycled?: ReadonlyMap<string, FileEntry>;
}

/** Kept files hard-linked per request to the writer threads during the build. */
const LINKS_PER_REQUEST = 2000;

/**
 * Writes files into a staging folder, skipping those whose bytes (or key) equal the previous
 * version's, and records every entry. The bytes go through batches and writer threads
 * (batches.ts); this class decides what each path holds: written, kept from the previous
 * version (linked), or already in place in a recycled older version. Write errors surface at
 * the latest in `flush()`.
 */
export class StagingWriter implements FileSink {
  readonly staging: string;
  /** The files of the previous version (path → size, and key or MD5). */
  readonly previous: ReadonlyMap<string, FileEntry>;
  /** Entries of the files handed over so far: a keyed file's at once, another's once hashed (all after `flush()`). */
  readonly entries = new FileEntries();
  /** Files handed over whose entry is not known yet (in a batch): with `entries`, every path this build holds. */
  private readonly pending = new Set<string>();
  private readonly madeDirs = new Set<string>();
  bytesWritten = 0;
  private readonly batches: Batches;
  private readonly linkSource: string | undefined;
  private readonly pendingLinks: string[] = [];
  /** Kept files already in staging: linked by the writer threads, or in place in the recycled version. */
  private readonly placed = new Set<string>();
  /** The older version recycled as this one's staging folder (none: empty). */
  private readonly recycled: RecycledVersion;

  constructor(
    staging: string,
    previous: ReadonlyMap<string, FileEntry>,
    options: StagingOptions = {},
  ) {
    this.staging = staging;
    this.previous = previous;
    this.linkSource = options.previousDir;
    this.recycled = new RecycledVersion(staging, options.recycled);
    this.batches = new Batches(
      staging,
      options.batchBytes ?? BATCH_BYTES,
      options.threads ?? 1,
      this.madeDirs,
      (result) => this.merge(result),
    );
  }

  /** How many files this build holds so far (written, kept, or in a batch). */
  get held(): number {
    return this.entries.size + this.pending.size;
  }

  /** Whether this build already holds a file at `rel` (shared media are written once). */
  has(rel: string): boolean {
    return this.entries.has(rel) || this.pending.has(rel);
  }

  /** Adds one file to the new version (its bytes may come in parts, copied once into the batch). */
  async write(rel: string, data: FileData, key?: string): Promise<void> {
    const waiting = this.add(rel, data, key);
    if (waiting !== undefined) await waiting;
  }

  /**
   * `write` without a promise when the file fits in the batch (nearly always): an async call and
   * an await for each of the API's tens of thousands of files per domain would be a large share of
   * the main thread's allocations, and of the collections they cause. A promise when it waits.
   */
  private add(rel: string, data: FileData, key: string | undefined): Promise<void> | undefined {
    // A keyed file that fits is recorded as it is packed: it needs no pending mark.
    this.claim(rel, key === undefined);
    this.batches.throwFailure();
    const parts = typeof data === "string" || data instanceof Uint8Array ? [data] : data;
    if (!this.batches.fits(parts)) {
      if (key !== undefined) this.pending.add(rel);
      return this.addAfterRoom(rel, parts, key);
    }
    this.pack(rel, parts, key);
    return undefined;
  }

  /** Hands batches over until `parts` fit, then packs them. */
  private async addAfterRoom(
    rel: string,
    parts: readonly FilePart[],
    key: string | undefined,
  ): Promise<void> {
    const previous = identity(this.previous.get(rel), key);
    const size = await this.batches.packAfterRoom(
      rel,
      parts,
      key,
      previous,
      identity(this.recycled.files.get(rel), key),
    );
    this.packed(rel, key, previous, size);
  }

  /** Packs a file's parts into the batch, which has room for them. */
  private pack(rel: string, parts: readonly FilePart[], key: string | undefined): void {
    const previous = identity(this.previous.get(rel), key);
    this.packed(
      rel,
      key,
      previous,
      this.batches.pack(rel, parts, key, previous, identity(this.recycled.files.get(rel), key)),
    );
  }

  private packed(
    rel: string,
    key: string | undefined,
    previous: Identity | undefined,
    size: number,
  ): void {
    // A keyed file's entry is known now (its key stands for its bytes): recorded here, the
    // writer's answer need not carry it back (a build hands over tens of thousands of pages).
    if (key !== undefined) {
      this.entries.add(rel, { size, key, fresh: differs(previous, key, size) });
      this.pending.delete(rel); // marked only when it waited for room
    }
  }

  /** Writes what is still packed and waits for the writer threads; throws the first write error. */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  /** Runs a job in a writer thread (a spreadsheet: CPU work the main thread would otherwise do between domains). */
  runInThread(job: ThreadJob): Promise<void> {
    return this.batches.run(job);
  }

  /** Starts the writer threads before the first batch fills (a build that knows it is large). */
  startThreads(): void {
    this.batches.startThreads();
  }

  /** Whether the writer threads are running (a build large enough to fill a batch). */
  get threadsStarted(): boolean {
    return this.batches.threadsStarted;
  }

  /** Waits for everything handed over, links included (the commit); throws the first failure. */
  settle(): Promise<void> {
    return this.batches.settle();
  }

  /** Stops the writer threads (after settle, or when the build is abandoned). */
  close(): Promise<void> {
    return this.batches.close();
  }

  private merge(result: BatchResult) {
    // The files without a key (keyed files were recorded when handed over: pack).
    for (const [rel, entry] of result.entries) this.setEntry(rel, entry);
    this.bytesWritten += result.bytesWritten;
  }

  /**
   * Writes a file whose bytes are fully described by `key`: when the previous version's file was
   * written with the same key it is kept without producing, hashing or comparing its bytes.
   */
  writeKeyed(rel: string, key: string, file: Produced): Promise<void> | undefined {
    return this.reuse(rel, key) ? undefined : this.add(rel, file.produce(), key);
  }

  /**
   * Keeps the previous version's file at `rel` when it was written with the same key (a digest
   * of everything its bytes are made from): it is linked at commit, never produced or hashed.
   * Stages whose files come out of another program (Eleventy) or are costly (spreadsheets) ask this first and
   * produce only the files whose key changed.
   */
  reuse(rel: string, key: string): boolean {
    const fields = this.previousFields(rel);
    if (fields === undefined || !fieldsHaveKey(fields, key)) return false;
    this.keep(rel, fields);
    return true;
  }

  /** The previous version's entry at `rel` as a manifest line's fields (those read, when it has a manifest). */
  private previousFields(rel: string): string | undefined {
    if (hasFields(this.previous)) return this.previous.fields(rel);
    const entry = this.previous.get(rel);
    return entry === undefined ? undefined : packFields(entry);
  }

  /**
   * A kept file is hard-linked into staging by the writer threads as soon as a few thousand are
   * known, while this thread goes on (a rebuild keeps tens of thousands; linking them all at
   * commit would make the build wait for them with nothing else left to do). The rest are linked
   * at commit.
   */
  private queueLink(rel: string, fields: string) {
    if (this.linkSource === undefined) return;
    if (this.recycled.holdsFields(rel, fields)) {
      this.placed.add(rel);
      return;
    }
    this.pendingLinks.push(rel);
    if (this.pendingLinks.length < LINKS_PER_REQUEST || !this.batches.threadsStarted) return;
    const rels = this.pendingLinks.splice(0);
    for (const linked of rels) this.placed.add(linked);
    this.batches.linkInThreads(this.linkSource, rels);
  }

  /**
   * Completes the staging folder once settled: links the kept files not linked yet from the
   * previous version's folder, stops the writer threads and removes what is left of the recycled
   * version. Nothing may be written after.
   */
  async complete(): Promise<void> {
    const toLink = this.unlinked();
    // Most kept files were linked during the build (see queueLink).
    if (toLink.length > 0) await this.batches.linkNow(this.linkSource!, toLink);
    await this.close();
    this.removeLeftovers();
  }

  /** Files of the recycled version (an older version as this one's staging folder) in place when the build began. */
  get recycledCount(): number {
    return this.recycled.size;
  }

  /** Keeps files of the previous version that this build does not produce (`--domain`). */
  keepPrevious(keep: (rel: string) => boolean): void {
    // By path first: only the kept ones' entries are read (a domain kept among three skips two thirds).
    for (const rel of this.previous.keys()) {
      if (keep(rel) && !this.has(rel)) this.keep(rel, this.previousFields(rel)!, true);
    }
  }

  /** Kept files not linked yet (complete links them). */
  private unlinked(): string[] {
    // A loop, not [...entries].filter: no pair array per file at the commit, for every file of the build.
    const rels: string[] = [];
    for (const rel of this.entries.keys())
      if (!this.entries.isFresh(rel) && !this.placed.has(rel) && !this.inPlace(rel)) rels.push(rel);
    return rels;
  }

  /** Whether the recycled version's file at `rel` already holds the bytes this version records there. */
  private inPlace(rel: string): boolean {
    return this.recycled.holds(rel, this.entries.get(rel));
  }

  /**
   * Removes the recycled files that the new version does not have, then the folders this leaves
   * empty. Called once every file is in (after flush).
   */
  private removeLeftovers(): void {
    this.recycled.removeLeftovers((rel) => this.entries.has(rel));
  }

  /**
   * Adds a file by copying it from elsewhere on disk (a cached image). The copy is done when the
   * promise resolves, so the caller may delete the source then.
   */
  copyFrom(rel: string, source: string, key?: string): Promise<void> {
    return this.adopt(rel, source, key, copyFileSync);
  }

  /**
   * Adds a file made for this build elsewhere on disk (a streamed spreadsheet, a MARC file),
   * taking it over: renamed into the staging folder (copied, on another file system). The source
   * is gone when the promise resolves.
   */
  moveFrom(rel: string, source: string, key?: string): Promise<void> {
    return this.adopt(rel, source, key, moveFile);
  }

  private async adopt(
    rel: string,
    source: string,
    key: string | undefined,
    place: (source: string, target: string) => void,
  ): Promise<void> {
    this.claim(rel);
    // A keyed file's key stands for its bytes: only its size is read, as for a keyed file
    // written through a batch (publishing hashes it if it must: publish/records/md5s.ts).
    const entry = key === undefined ? await hashFile(source) : { size: statSync(source).size };
    if (this.record(rel, { ...entry, key }) && !this.inPlace(rel)) {
      const target = path.join(this.staging, rel);
      try {
        this.ensureDir(rel);
        if (this.recycled.has(rel)) removeStale(target);
        place(source, target);
      } catch (error) {
        throw writeFailure(error, target);
      }
    } else if (place === moveFile) removeStale(source);
  }

  /** Records a file of the new version; true when its bytes differ from the previous version's. */
  private record(rel: string, entry: FileEntry): boolean {
    const old = this.previous.get(rel);
    const fresh = old === undefined || !sameBytes(old, entry);
    this.setEntry(rel, { size: entry.size, md5: entry.md5, key: entry.key, fresh });
    if (fresh) this.bytesWritten += entry.size;
    return fresh;
  }

  /** Records the entry of a file claimed before. */
  private setEntry(rel: string, entry: StagedEntry) {
    this.entries.set(rel, entry);
    this.pending.delete(rel);
  }

  /**
   * Keeps the previous version's file at `rel`, whose entry there is `fields` (`size\tmd5\tkey`);
   * `readPath`: `rel` is the previous manifest's own string.
   */
  private keep(rel: string, fields: string, readPath = false) {
    this.checkPath(rel);
    this.recycled.clearWay(rel);
    this.entries.keepFields(rel, fields, readPath);
    this.queueLink(rel, fields);
  }

  /** Checks `rel` and clears its way; `pending`: marks it as held until its entry is recorded. */
  private claim(rel: string, pending = true) {
    this.checkPath(rel);
    if (pending) this.pending.add(rel);
    this.recycled.clearWay(rel);
  }

  private checkPath(rel: string) {
    if (UNSAFE_PATH.test(rel) || rel === MANIFEST_PATH) {
      throw new Error(`bug: refusing to write ${JSON.stringify(rel)} in the output`);
    }
    if (this.has(rel)) throw new Error(`bug: ${rel} is written twice in one build`);
  }

  private ensureDir(rel: string): void {
    makeParentDir(this.staging, rel, this.madeDirs);
  }
}

/**
 * An empty, `.` or `..` segment (which also catches a leading or trailing slash), or a tab or line
 * break (the manifest's separators).
 */
const UNSAFE_PATH = /(^|\/)\.{0,2}(\/|$)|[\t\n\r]/;

/** Moves a file: renamed, or copied then removed when the target is on another file system. */
function moveFile(source: string, target: string): void {
  try {
    renameSync(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    copyFileSync(source, target);
    removeStale(source);
  }
}
