import { completeDigests } from "./digests.ts";
import { checkDeletes, DEFAULT_MAX_DELETES, makePlan, type Plan } from "./plan.ts";

export { DEFAULT_MAX_DELETES };
import { readSource, type Phase, type Source } from "./source.ts";
import type { Published, PublishedEntry, SourceFile, Target } from "./target.ts";

export interface PublishOptions {
  /** The build output (default `dist`). */
  dir: string;
  target: Target;
  /** Publish only this domain (its folder, its media folder, a filtered build.json). */
  domain?: string;
  dryRun?: boolean;
  /** Refuse, before any change, to delete more files than this. */
  maxDeletes?: number;
  /** Uploads in flight at once. */
  concurrency?: number;
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
}

export interface PublishSummary {
  target: string;
  plan: Plan;
  uploaded: number;
  skipped: number;
  deleted: number;
  bytes: number;
  seconds: number;
  /** Requests made to the target (S3 only). */
  requests: number | null;
  dryRun: boolean;
}

const PHASES: Phase[] = ["media", "pages", "entry"];

/**
 * Publishes a build: reads it and the target, plans, checks the delete guard, then uploads media,
 * pages and entry documents (each phase complete before the next), deletes, and records the
 * manifest last. A failure stops new uploads, waits for those in flight and records what they
 * stored, so a re-run uploads only the rest.
 */
export async function publish(options: PublishOptions): Promise<PublishSummary> {
  const started = performance.now();
  const source = await readSource(options.dir, options.domain);
  try {
    return await publishSource(source, options, started);
  } finally {
    await source.release();
  }
}

async function publishSource(source: Source, options: PublishOptions, started: number): Promise<PublishSummary> {
  const { target } = options;
  const state = await target.read();
  const built = await completeDigests(source.files, state.published);
  const plan = makePlan({ files: built }, state);
  const summary = (uploaded: number, deleted: number, bytes: number, dryRun: boolean): PublishSummary => ({
    target: target.name,
    plan,
    uploaded,
    skipped: plan.skipped,
    deleted,
    bytes,
    seconds: (performance.now() - started) / 1000,
    requests: target.requests,
    dryRun,
  });
  if (options.dryRun) return summary(0, 0, 0, true);
  checkDeletes(plan, options.maxDeletes ?? DEFAULT_MAX_DELETES, target.name);

  // What the target holds with known headers: the last manifest's still-valid entries, then each upload.
  const files = new Map<string, PublishedEntry>();
  for (const [rel, entry] of state.published ?? []) {
    if (state.files.get(rel)?.md5 === entry.md5) files.set(rel, entry);
  }
  // Each entry records the key its file was built with, from which the next publish knows its MD5
  // (digests.ts); a file that kept its bytes under a new key is recorded with the new one.
  let rekeyed = 0;
  for (const file of built) {
    const entry = files.get(file.path);
    if (entry !== undefined && entry.md5 === file.md5 && entry.key !== file.key) {
      files.set(file.path, entryOf(file));
      rekeyed++;
    }
  }
  const published: Published = { date: source.info.date, files };

  let done = 0;
  let bytes = 0;
  try {
    await target.begin();
    for (const phase of PHASES) {
      const uploads = plan.uploads.filter((u) => u.file.phase === phase);
      await pool(uploads, options.concurrency ?? 8, async ({ file }) => {
        files.delete(file.path);
        await target.put(file);
        files.set(file.path, entryOf(file));
        done++;
        bytes += file.size;
        options.onProgress?.({ done, total: plan.uploads.length, bytes });
      });
    }
    if (plan.deletes.length > 0) {
      await target.remove(plan.deletes);
      for (const rel of plan.deletes) files.delete(rel);
    }
    // Exactly the build now: entries of files the build no longer has are gone with them.
    const wanted = new Set(source.files.map((f) => f.path));
    for (const rel of files.keys()) if (!wanted.has(rel)) files.delete(rel);
    // A publish that changed nothing leaves an exact manifest alone (one request less on S3).
    const unchanged = done === 0 && rekeyed === 0 && plan.deletes.length === 0 && state.published !== null && state.published.size === files.size;
    if (!unchanged) await target.finish(published);
  } catch (error) {
    await target.abort(published).catch(() => {});
    throw error;
  }
  return summary(done, plan.deletes.length, bytes, false);
}

/** What the target's manifest records of a file it holds. */
function entryOf(file: SourceFile): PublishedEntry {
  return {
    size: file.size,
    md5: file.md5,
    ...(file.key !== undefined ? { key: file.key } : {}),
    contentType: file.contentType,
    cacheControl: file.cacheControl,
    ...(file.contentDisposition ? { contentDisposition: file.contentDisposition } : {}),
  };
}

/** Runs `fn` over items, `limit` at a time; after a failure starts nothing new, waits, then throws it. */
async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  async function worker() {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
