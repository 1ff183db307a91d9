import type { FileHeaders } from "./file-headers.ts";

/**
 * What the publisher (publish.ts) talks to. A store (S3, a directory) holds objects at paths and
 * is compared with, updated in place and guarded by records and leases (records/records.ts, records/lease.ts); an
 * archive (archive.ts) is written whole every time through the older `Target` interface.
 * test/publish/conformance.ts runs the same suite over every one.
 */

/** One file of the build to publish, with the headers it is served with. */
export interface SourceFile extends FileHeaders {
  path: string;
  size: number;
  md5: string;
  /** The key the build wrote it with (see output/staging.ts, FileEntry), if any. */
  key?: string;
  /** Where its bytes are: a file of the build, or bytes made for this publish (a merged build.json, a record). */
  abs: string | null;
  bytes: Buffer | null;
}

/** What a record says of a file the target holds. */
export interface PublishedEntry extends FileHeaders {
  size: number;
  md5: string;
  /** The key the file was built with: the same key at the same path means the same bytes, and so this MD5. */
  key?: string;
  /** The directory target's quick check (like rsync's): the file's mtime when it was written. */
  mtimeMs?: number;
}

/** An object of a store as a listing shows it. */
export interface Listed {
  size: number;
  /** The MD5 of its bytes (the S3 ETag of a single-part upload). */
  md5: string;
  /** When it was last written, by the store's clock (ms): leases age by it. */
  modified: number;
}

/** An S3 bucket (prefix) or a directory. */
export interface Store {
  readonly kind: "store";
  /** For messages: `s3://bucket/prefix`, a folder. */
  readonly name: string;
  /** Requests made so far (S3); null where it means nothing. */
  readonly requests: number | null;
  /**
   * Every object whose path starts with `prefix` ("" for all, else a folder ending in "/").
   * `known` lets a directory skip hashing files whose size and mtime a record confirms.
   */
  list(prefix: string, known?: ReadonlyMap<string, PublishedEntry>): Promise<Map<string, Listed>>;
  /** The top-level folders and files of the target (what `--verify` lists in parallel). */
  top(): Promise<string[]>;
  /** An object's bytes (its first `firstBytes` only, when given), or null when there is none. */
  get(rel: string, firstBytes?: number): Promise<Buffer | null>;
  /** Stores a file; returns the mtime a directory gave it (for its quick check). */
  put(file: SourceFile): Promise<number | undefined>;
  remove(paths: string[]): Promise<void>;
  /** Refuses a place that is not ours (a non-empty folder that catalogue never published to). */
  claimable(hasRecords: boolean): Promise<void>;
  /** What the first request would set up (S3: loading the client), done ahead while the caller has time; never fails. */
  prepare?(): Promise<void>;
}

/** What the archive records: the build date (every entry's time) and its files. */
export interface Published {
  date: string;
  files: Map<string, PublishedEntry>;
}

/** An archive: written whole, from nothing, every time. */
export interface Archive {
  readonly name: string;
  readonly requests: number | null;
  /** Before the first file. */
  begin(): Promise<void>;
  put(file: SourceFile): Promise<void>;
  /** Writes the archive of every file put. */
  finish(published: Published): Promise<void>;
  /** After a failure: drops temporary files. */
  abort(published: Published): Promise<void>;
}

/** What `--to` names: a store kept in step file by file, or an archive written whole. */
export type Target = Store | Archive;

/** The manifest of the publisher before records (one file for the whole target): read, then removed. */
export const LEGACY_PUBLISHED_PATH = "_catalogue/published.json";
