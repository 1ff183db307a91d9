/**
 * What a stage of the build writes into the output (a FileSink), and in what forms: a file's
 * bytes (text, bytes or parts, some shared between files) and the entry the new version records
 * for it. The sink itself is the StagingWriter (staging.ts).
 */

/**
 * A file of a version. A file written with a key (a digest of everything its bytes are made
 * from: the same path with the same key holds the same bytes) is not hashed by the build: MD5
 * is a large part of an API build, and only publishing needs it (see publish/digests.ts). Every
 * other file has its MD5.
 */
export interface FileEntry {
  size: number;
  md5?: string;
  /** For files written with a key: the digest of what their bytes are made from. */
  key?: string;
}

/** Whether two entries of the same path hold the same bytes (by key, else by MD5). */
export function sameBytes(a: FileEntry, b: FileEntry): boolean {
  return (
    a.size === b.size &&
    ((a.key !== undefined && a.key === b.key) || (a.md5 !== undefined && a.md5 === b.md5))
  );
}

/**
 * Bytes that several files contain (a listing page's results, the same in its three formats):
 * copied into a batch once and referenced by every file of that batch that holds them.
 */
export class SharedBytes {
  readonly size: number;
  constructor(readonly parts: readonly Uint8Array[]) {
    this.size = parts.reduce((n, part) => n + part.length, 0);
  }
}

export type FilePart = string | Uint8Array | SharedBytes;

/** A file's bytes: text (UTF-8), bytes, or parts, written one after the other. */
export type FileData = string | Uint8Array | readonly FilePart[];

/** A file whose bytes are made on demand. */
export interface Produced {
  produce(): FileData;
}

/** What a stage of the build writes into (the output tree). */
export interface FileSink {
  write(rel: string, data: FileData, key?: string): Promise<void>;
  /** `write` of a keyed file, produced only when the previous one is not kept; a promise only when it must be awaited. */
  writeKeyed(rel: string, key: string, file: Produced): Promise<void> | undefined;
  /** Keeps the previous version's file at `rel` when it was written with `key`; true when kept. */
  reuse(rel: string, key: string): boolean;
  copyFrom(rel: string, source: string, key?: string): Promise<void>;
  /** `copyFrom` of a file made for the build, taken over (renamed when it can be): the source is gone after. */
  moveFrom(rel: string, source: string, key?: string): Promise<void>;
  has(rel: string): boolean;
  /** Waits until everything handed over so far is written; throws the first write error. */
  flush(): Promise<void>;
}
