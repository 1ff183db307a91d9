import type { FileHeaders } from "./headers.ts";

/**
 * The one interface every publishing target implements (S3, directory, archive). The publisher
 * (publish.ts) computes the plan and the order; a target only says what it holds and stores,
 * removes and records files. test/publish/conformance.ts runs the same suite over every target.
 */

/** One file of the build to publish, with the headers it is served with. */
export interface SourceFile extends FileHeaders {
  path: string;
  size: number;
  md5: string;
  /** The key the build wrote it with (see output/staging.ts, FileEntry), if any. */
  key?: string;
  /** Where its bytes are: a file of the build, or bytes made for this publish (a filtered build.json). */
  abs: string | null;
  bytes: Buffer | null;
}

/** What the publisher records in the target (last), so the next publish sees header changes. */
export interface PublishedEntry extends FileHeaders {
  size: number;
  md5: string;
  /** The key the file was built with: the same key at the same path means the same bytes, and so this MD5. */
  key?: string;
}

export interface Published {
  /** The build date, also the fixed time of every archive entry. */
  date: string;
  files: Map<string, PublishedEntry>;
}

/** What a target holds now. */
export interface TargetState {
  /** Every file under the target (its own manifest excepted) with its MD5 (an S3 ETag). */
  files: Map<string, { size: number; md5: string }>;
  /** The manifest of the last publish, or null (a new target, or one written by other tools). */
  published: Map<string, PublishedEntry> | null;
}

export const PUBLISHED_PATH = "_catalogue/published.json";

export interface Target {
  /** For messages: `s3://bucket/prefix`, a folder, an archive file. */
  readonly name: string;
  /** Requests made to the target so far (S3); null where it means nothing. */
  readonly requests: number | null;
  read(): Promise<TargetState>;
  /** Before the first change (never in a dry run). */
  begin(): Promise<void>;
  put(file: SourceFile): Promise<void>;
  remove(paths: string[]): Promise<void>;
  /** Records `published` as what the target now holds; called last, after the deletes. */
  finish(published: Published): Promise<void>;
  /** After a failure: records what is known to be stored (best effort) and drops temporary files. */
  abort(published: Published): Promise<void>;
}
