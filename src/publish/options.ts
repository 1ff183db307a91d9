import type { FileEntries } from "../output/entries.ts";
import type { FileEntry } from "../output/tree.ts";
import type { LeaseOptions } from "./records/lease.ts";
import type { Target } from "./targets/target.ts";

/** What a publish is asked to do (publish.ts); the modules of its steps read it too. */

export interface PublishOptions {
  /** The build output (default `dist`). */
  dir: string;
  target: Target;
  /**
   * Publish only these domains. On a store the publish owns their folders and records only
   * (others publishing other domains to the same target may run at once); an archive holds them only.
   */
  domains?: string[];
  dryRun?: boolean;
  /** An explicit delete limit; without it the routine rule of plan.ts applies. */
  maxDeletes?: number;
  /** List the whole target instead of trusting its records, and repair what differs. */
  verify?: boolean;
  /** Uploads in flight at once. */
  concurrency?: number;
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
  /** The build's file list, when the caller just built it (deploy): files.tsv is not read again. */
  manifest?: ReadonlyMap<string, FileEntry>;
  /** What the build just made changed (deploy): the plan is made from it when the records allow (changes.ts). */
  changes?: BuildChanges;
  lease?: LeaseOptions;
  /** A folder for local copies of the target's records, read instead of downloading them when they are current (record-cache.ts). */
  cacheDir?: string;
  /** Then remove the media no domain of the target uses (prune.ts); a store only. */
  pruneMedia?: boolean;
}

/** What the build just made changed, for a deploy that plans from it (changes.ts). */
export interface BuildChanges {
  /** Every file of the build just written, `fresh` when it differs from the version it replaced (output/entries.ts). */
  files: FileEntries;
  /** The inputs keys of the version the build replaced ({} when there was none). */
  previousKeys: Readonly<Record<string, string>>;
}
