import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { CATALOGUE_DIR, INPUTS_PATH } from "../output/catalogue-paths.ts";
import { BUILD_INFO_PATH, readBuildInfo } from "../output/build-info.ts";
import { holdVersion } from "../output/tree.ts";
import { md5 } from "../util/hash.ts";
import { mapLimit } from "../util/concurrency.ts";
import { completeDigests } from "./records/md5s.ts";
import { acquireLease, type Lease } from "./records/lease.ts";
import { checkDeletes, phaseIndex, type Plan } from "./records/plan.ts";
import { entryOf, recordPath, RECORDS_FOLDER } from "./records/records.ts";
import { planFromChanges, type BuildChanges } from "./records/changes.ts";
import { recordCache } from "./records/record-cache.ts";
import { decide, type Decision } from "./records/compare.ts";
import { domainsOnly, madeFile, readDomainKeys, readSource, type Source } from "./source.ts";
import { archiveHasNoMedia, pruneMedia } from "./records/prune.ts";
import { remerge } from "./records/scope.ts";
import { unchangedOnTarget } from "./records/unchanged.ts";
import type { PublishOptions } from "./options.ts";
import {
  LEGACY_PUBLISHED_PATH,
  type Listed,
  type PublishedEntry,
  type Store,
  type Archive,
  type Target,
} from "./targets/target.ts";

export type { PublishOptions };

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
  /** Media removed (or that would be) by `pruneMedia`, also counted in `deleted`. */
  pruned: string[];
  /** Planned from the build's changes (changes.ts) rather than by comparing every file. */
  quick: boolean;
}

const isStore = (target: Target): target is Store => (target as Store).kind === "store";

/**
 * Publishes a build. On a store: reads the records of the domains it owns (listing only what no
 * complete record describes), plans, checks the delete guard, takes the lease of those domains,
 * marks their records `updating`, uploads media, new files, changed files and entry documents
 * (each phase complete before the next), deletes, and records them `complete`. A failure stops
 * new uploads, waits for those in flight and records what they stored, so a re-run uploads only
 * the rest. An archive is written whole.
 */
export async function publish(options: PublishOptions): Promise<PublishSummary> {
  const started = performance.now();
  const { target } = options;
  const catalogue = isStore(target) ? await target.list(`${CATALOGUE_DIR}/`) : null;
  // A prune reads every domain's record and lists the media: it never takes the quick answer.
  if (isStore(target) && !options.verify && !options.pruneMedia) {
    // A deploy whose build changed something: planned from its changes when the records allow.
    if (options.changes !== undefined && options.domains === undefined) {
      const quick = await publishChanges(target, options, started, catalogue!, options.changes);
      if (quick !== null) return quick;
    }
    const unchanged = await unchangedOnTarget(options.dir, target, options.domains, catalogue!);
    if (unchanged !== null) {
      const plan: Plan = {
        uploads: [],
        deletes: [],
        recordedDeletes: 0,
        recorded: 0,
        skipped: unchanged.skipped,
        bytes: 0,
      };
      const seconds = (performance.now() - started) / 1000;
      return {
        target: target.name,
        plan,
        uploaded: 0,
        skipped: plan.skipped,
        deleted: 0,
        bytes: 0,
        seconds,
        requests: target.requests,
        dryRun: options.dryRun ?? false,
        pruned: [],
        quick: false,
      };
    }
  }
  const source = await readSource(options.dir, options.manifest ?? options.changes?.files);
  try {
    if (!isStore(target)) {
      if (options.pruneMedia) throw archiveHasNoMedia(target.name);
      return await publishArchive(source, target, options, started);
    }
    const redecide = (catalogue?: Map<string, Listed>) =>
      decide(source, target, options, catalogue);
    const summary = await publishToStore(
      source,
      target,
      options,
      started,
      await redecide(catalogue!),
      redecide,
    );
    if (!options.pruneMedia) return summary;
    const pruned = await pruneMedia(target, source.info, {
      dryRun: summary.dryRun,
      maxDeletes: options.maxDeletes,
      lease: options.lease,
    });
    return {
      ...summary,
      pruned,
      deleted: summary.deleted + (summary.dryRun ? 0 : pruned.length),
      seconds: (performance.now() - started) / 1000,
      requests: target.requests,
    };
  } finally {
    await source.release();
  }
}

/** A publish planned from the build's changes (changes.ts); null when the records do not allow it. */
async function publishChanges(
  store: Store,
  options: PublishOptions,
  started: number,
  catalogue: Map<string, Listed>,
  changes: BuildChanges,
): Promise<PublishSummary | null> {
  const dir = await realpath(options.dir).catch(() => null);
  if (dir === null) return null;
  const release = await holdVersion(dir);
  const sources: Source[] = [];
  try {
    // The version at `dir` must be the one the build wrote (a build that finished since swapped it).
    const inputs = await readFile(path.join(dir, INPUTS_PATH)).catch(() => null);
    if (inputs === null || md5(inputs) !== changes.files.get(INPUTS_PATH)?.md5) return null;
    const info = await readBuildInfo(dir);
    const source: Source = {
      dir,
      info,
      inputs: await readDomainKeys(dir),
      files: [],
      release: async () => {},
    };
    const decision = await planFromChanges(
      source,
      changes,
      catalogue,
      recordCache(store, options.cacheDir),
    );
    if (decision === null) return null;
    // Another publisher changed the records meanwhile: everything is compared.
    const redecide = async () => {
      const full = await readSource(options.dir, changes.files);
      sources.push(full);
      return decide(full, store, options);
    };
    return await publishToStore(source, store, options, started, decision, redecide);
  } finally {
    for (const s of sources) await s.release();
    await release();
  }
}

async function publishToStore(
  source: Source,
  store: Store,
  options: PublishOptions,
  started: number,
  first: Decision,
  redecide: () => Promise<Decision>,
): Promise<PublishSummary> {
  let decision = first;
  const summary = (
    uploaded: number,
    deleted: number,
    bytes: number,
    dryRun: boolean,
  ): PublishSummary => ({
    target: store.name,
    plan: decision.plan,
    uploaded,
    skipped: decision.plan.skipped,
    deleted,
    bytes,
    seconds: (performance.now() - started) / 1000,
    requests: store.requests,
    dryRun,
    pruned: [],
    quick: decision.quick,
  });
  if (options.dryRun) return summary(0, 0, 0, true);
  checkDeletes(decision.plan, options.maxDeletes, store.name);
  const whole = options.domains === undefined;
  const removeLegacy = whole && decision.legacy;
  // Nothing to do: no lease taken, nothing written (a night with no change costs the reads).
  const { plan, touched } = decision;
  if (
    touched.length === 0 &&
    plan.uploads.length === 0 &&
    plan.deletes.length === 0 &&
    !removeLegacy
  )
    return summary(0, 0, 0, false);

  const lease = await acquireLease(store, whole ? ["*"] : decision.owned, options.lease);
  try {
    // Another publisher may have finished between the reads and the lease: then read again.
    const tags = await store.list(RECORDS_FOLDER);
    const moved = decision.owned.some(
      (d) => tags.get(recordPath(d))?.md5 !== decision.recordTags.get(d),
    );
    if (moved) {
      decision = await redecide();
      checkDeletes(decision.plan, options.maxDeletes, store.name);
    }
    const { uploaded, bytes } = await execute(source, store, decision, lease, options);
    if (removeLegacy) await store.remove([LEGACY_PUBLISHED_PATH]);
    return summary(uploaded, decision.plan.deletes.length, bytes, false);
  } finally {
    await lease.release().catch(() => {});
  }
}

async function execute(
  source: Source,
  store: Store,
  decision: Decision,
  lease: Lease,
  options: PublishOptions,
) {
  const { plan } = decision;
  // Each upload once it is stored, as the target holds it.
  const stored = new Map<string, PublishedEntry>();
  let deleted = false;
  const records = recordCache(store, options.cacheDir);
  const writeRecords = (complete: boolean) =>
    mapLimit(decision.touched, 8, async (domain) => {
      const bytes = decision.record(domain, complete, stored, deleted);
      await store.put(madeFile(recordPath(domain), bytes, source.info));
      await records.keep(domain, bytes);
    });

  let done = 0;
  let bytes = 0;
  try {
    // Before the first change: the records claim only what stays as it is.
    await writeRecords(false);
    const phases = groupBy(plan.uploads, (u) => phaseIndex(u));
    for (const uploads of phases) {
      lease.check();
      await mapLimit(uploads, options.concurrency ?? 8, async ({ file }) => {
        if (file.path === BUILD_INFO_PATH && options.domains !== undefined)
          await remerge(source, store, options);
        else stored.set(file.path, entryOf(file, await store.put(file)));
        done++;
        bytes += file.size;
        options.onProgress?.({ done, total: plan.uploads.length, bytes });
      });
    }
    lease.check();
    if (plan.deletes.length > 0) {
      await store.remove(plan.deletes);
      deleted = true;
    }
    lease.check();
    await writeRecords(true);
    if (decision.gone.length > 0) await store.remove(decision.gone.map(recordPath));
  } catch (error) {
    // Record what is known to be stored, so a re-run sends only the rest (best effort).
    if (!lease.lost) await writeRecords(false).catch(() => {});
    throw error;
  }
  return { uploaded: done, bytes };
}

async function publishArchive(
  source: Source,
  target: Archive,
  options: PublishOptions,
  started: number,
): Promise<PublishSummary> {
  const files = await completeDigests(
    options.domains === undefined ? source.files : domainsOnly(source, options.domains),
    null,
  );
  const plan: Plan = {
    uploads: files.map((file) => ({ file, reason: "new" })),
    deletes: [],
    recordedDeletes: 0,
    recorded: 0,
    skipped: 0,
    bytes: files.reduce((s, f) => s + f.size, 0),
  };
  const summary = (uploaded: number, dryRun: boolean): PublishSummary => ({
    target: target.name,
    plan,
    uploaded,
    skipped: 0,
    deleted: 0,
    bytes: uploaded === 0 ? 0 : plan.bytes,
    seconds: (performance.now() - started) / 1000,
    requests: target.requests,
    dryRun,
    pruned: [],
    quick: false,
  });
  if (options.dryRun) return summary(0, true);
  const published = {
    date: source.info.date,
    files: new Map(files.map((f) => [f.path, entryOf(f)])),
  };
  try {
    await target.begin();
    for (const file of files) await target.put(file);
    await target.finish(published);
  } catch (error) {
    await target.abort(published).catch(() => {});
    throw error;
  }
  options.onProgress?.({ done: files.length, total: files.length, bytes: plan.bytes });
  return summary(files.length, false);
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): T[][] {
  const groups: T[][] = [];
  for (const item of items) (groups[key(item)] ??= []).push(item);
  return groups.filter((g) => g !== undefined);
}
