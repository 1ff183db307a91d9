import { BUILD_INFO_PATH, parseBuildInfo } from "../output/build-info.ts";
import { md5, type FileEntry } from "../output/tree.ts";
import { mapLimit } from "../util/concurrency.ts";
import { completeDigests } from "./digests.ts";
import { acquireLease, type Lease, type LeaseOptions } from "./lease.ts";
import { checkDeletes, makePlan, phaseIndex, type Plan } from "./plan.ts";
import { encodeRecord, recordPath, RECORDS_FOLDER, type DomainRecord } from "./records.ts";
import { chooseDomains, domainsOnly, madeFile, ownersOf, readSource, type BuildFile, type Source } from "./source.ts";
import { archiveHasNoMedia, pruneMedia } from "./prune.ts";
import { mergedBuildJson, remerge, scopedDeletes } from "./scope.ts";
import { readState, type TargetState } from "./state.ts";
import { unchangedOnTarget } from "./unchanged.ts";
import { LEGACY_PUBLISHED_PATH, type Listed, type PublishedEntry, type SourceFile, type Store, type Target } from "./target.ts";

export interface PublishOptions {
  /** The build output (default `dist`). */
  dir: string;
  target: Store | Target;
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
  lease?: LeaseOptions;
  /** Then remove the media no domain of the target uses (prune.ts); a store only. */
  pruneMedia?: boolean;
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
  /** Media removed (or that would be) by `pruneMedia`, also counted in `deleted`. */
  pruned: string[];
}

const isStore = (target: Store | Target): target is Store => (target as Store).kind === "store";

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
  const catalogue = isStore(target) ? await target.list("_catalogue/") : null;
  // A prune reads every domain's record and lists the media: it never takes the quick answer.
  if (isStore(target) && !options.verify && !options.pruneMedia) {
    const unchanged = await unchangedOnTarget(options.dir, target, options.domains, catalogue!);
    if (unchanged !== null) {
      const plan: Plan = { uploads: [], deletes: [], recordedDeletes: 0, recorded: 0, skipped: unchanged.skipped, bytes: 0 };
      const seconds = (performance.now() - started) / 1000;
      return { target: target.name, plan, uploaded: 0, skipped: plan.skipped, deleted: 0, bytes: 0, seconds, requests: target.requests, dryRun: options.dryRun ?? false, pruned: [] };
    }
  }
  const source = await readSource(options.dir, options.manifest);
  try {
    if (!isStore(target)) {
      if (options.pruneMedia) throw archiveHasNoMedia(target.name);
      return await publishArchive(source, target, options, started);
    }
    const summary = await publishToStore(source, target, options, started, catalogue!);
    if (!options.pruneMedia) return summary;
    const pruned = await pruneMedia(target, source.info, { dryRun: summary.dryRun, maxDeletes: options.maxDeletes, lease: options.lease });
    return { ...summary, pruned, deleted: summary.deleted + (summary.dryRun ? 0 : pruned.length), seconds: (performance.now() - started) / 1000, requests: target.requests };
  } finally {
    await source.release();
  }
}

/** Everything a store publish decided before changing anything. */
interface Decision {
  state: TargetState;
  files: (SourceFile & { phase: BuildFile["phase"] })[];
  plan: Plan;
  /** The complete record each owned domain should end with (null: a domain the build no longer has). */
  records: Map<string, { owned: string[]; old: Set<string> } | null>;
  /** Domains whose stored record must be rewritten. */
  touched: string[];
}

async function decide(source: Source, store: Store, options: PublishOptions, catalogue?: Map<string, Listed>): Promise<Decision> {
  const whole = options.domains === undefined;
  const scope = whole ? source.info.domains : chooseDomains(source.info, options.domains!);
  const names = scope.map((d) => d.domain);
  const state = await readState(store, source.info, { domains: names, whole, verify: options.verify ?? false, readBuildJson: !whole, catalogue });
  const inScope = (f: BuildFile) => ownersOf(f.path, source.info).some((d) => names.includes(d));
  const chosen = whole ? source.files : [...source.files.filter(inScope), mergedBuildJson(source.info, names, state.buildJson?.bytes ?? null)];
  const files = await completeDigests(chosen, state.published);
  const buildJson = files.find((f) => f.path === BUILD_INFO_PATH);
  if (state.buildJson !== null && buildJson !== undefined) {
    // A listing gives build.json's MD5 (not in any record): the same MD5 is the same file, stored with its fixed headers.
    const same = state.buildJson.md5 === buildJson.md5;
    state.held.set(BUILD_INFO_PATH, { size: same ? buildJson.size : -1, md5: state.buildJson.md5 });
    if (same) state.published.set(BUILD_INFO_PATH, entryOf(buildJson));
  }
  const deletable = whole ? (rel: string) => !rel.startsWith("_catalogue/") : scopedDeletes(source.info, names, parseBuildInfo(state.buildJson?.bytes ?? null));
  const plan = makePlan(files, state, deletable);

  const records = new Map<string, { owned: string[]; old: Set<string> } | null>();
  for (const [domain, stored] of state.records) {
    const old = new Set<string>([...(stored?.files.keys() ?? []), ...(stored?.pending ?? [])]);
    for (const rel of plan.deletes) if (rel.startsWith(`${domain}/`)) old.add(rel);
    records.set(domain, names.includes(domain) ? { owned: [], old } : null);
  }
  for (const file of files) for (const domain of ownersOf(file.path, source.info)) records.get(domain)?.owned.push(file.path);
  // A record is rewritten when anything of its domain changes, or when it is not already the one it would be.
  const entries = new Map<string, PublishedEntry>();
  for (const file of files) entries.set(file.path, entryOf(file, state.published.get(file.path)?.mtimeMs));
  const changing = new Set([...plan.uploads.map((u) => u.file.path), ...plan.deletes]);
  const touched = [...records].flatMap(([domain, r]) => {
    if (r === null || options.verify) return [domain];
    if (r.owned.some((rel) => changing.has(rel)) || [...r.old].some((rel) => changing.has(rel))) return [domain];
    const bytes = encodeRecord({ domain, state: "complete", date: source.info.date, inputs: source.inputs[domain], files: pick(entries, r.owned), pending: new Set() });
    return md5(bytes) === state.recordTags.get(domain) ? [] : [domain];
  });
  return { state, files, plan, records, touched };
}

async function publishToStore(source: Source, store: Store, options: PublishOptions, started: number, catalogue: Map<string, Listed>): Promise<PublishSummary> {
  let decision = await decide(source, store, options, catalogue);
  const summary = (uploaded: number, deleted: number, bytes: number, dryRun: boolean): PublishSummary => ({
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
  });
  if (options.dryRun) return summary(0, 0, 0, true);
  checkDeletes(decision.plan, options.maxDeletes, store.name);
  const whole = options.domains === undefined;
  const removeLegacy = whole && decision.state.legacy;
  // Nothing to do: no lease taken, nothing written (a night with no change costs the reads).
  const { plan, touched } = decision;
  if (touched.length === 0 && plan.uploads.length === 0 && plan.deletes.length === 0 && !removeLegacy) return summary(0, 0, 0, false);

  const lease = await acquireLease(store, whole ? ["*"] : [...decision.records.keys()], options.lease);
  try {
    // Another publisher may have finished between the reads and the lease: then read again.
    const tags = await store.list(RECORDS_FOLDER);
    const moved = [...decision.records.keys()].some((d) => tags.get(recordPath(d))?.md5 !== decision.state.recordTags.get(d));
    if (moved) {
      decision = await decide(source, store, options);
      checkDeletes(decision.plan, options.maxDeletes, store.name);
    }
    const { uploaded, bytes } = await execute(source, store, decision, lease, options);
    if (removeLegacy) await store.remove([LEGACY_PUBLISHED_PATH]);
    return summary(uploaded, decision.plan.deletes.length, bytes, false);
  } finally {
    await lease.release().catch(() => {});
  }
}

async function execute(source: Source, store: Store, decision: Decision, lease: Lease, options: PublishOptions) {
  const { plan, records, files, state } = decision;
  const uploading = new Set(plan.uploads.map((u) => u.file.path));
  // What the target holds with known headers: skipped files now, each upload once it is stored.
  const confirmed = new Map<string, PublishedEntry>();
  for (const file of files) if (!uploading.has(file.path)) confirmed.set(file.path, entryOf(file, state.published.get(file.path)?.mtimeMs));
  const deleted = new Set<string>();
  const recordOf = (domain: string, complete: boolean): DomainRecord => {
    const r = records.get(domain);
    const pending = new Set<string>();
    for (const rel of r?.old ?? []) if (!deleted.has(rel) && !confirmed.has(rel)) pending.add(rel);
    for (const rel of r?.owned ?? []) if (!confirmed.has(rel)) pending.add(rel);
    return { domain, state: complete && pending.size === 0 ? "complete" : "updating", date: source.info.date, inputs: source.inputs[domain], files: pick(confirmed, r?.owned ?? []), pending };
  };
  const writeRecords = (complete: boolean) =>
    mapLimit(decision.touched, 8, (domain) => store.put(madeFile(recordPath(domain), encodeRecord(recordOf(domain, complete)), source.info)));

  let done = 0;
  let bytes = 0;
  try {
    // Before the first change: the records claim only what stays as it is.
    await writeRecords(false);
    const phases = groupBy(plan.uploads, (u) => phaseIndex(u));
    for (const uploads of phases) {
      lease.check();
      await pool(uploads, options.concurrency ?? 8, async ({ file }) => {
        if (file.path === BUILD_INFO_PATH && options.domains !== undefined) await remerge(source, store, options);
        else confirmed.set(file.path, entryOf(file, await store.put(file)));
        done++;
        bytes += file.size;
        options.onProgress?.({ done, total: plan.uploads.length, bytes });
      });
    }
    lease.check();
    if (plan.deletes.length > 0) {
      await store.remove(plan.deletes);
      for (const rel of plan.deletes) deleted.add(rel);
    }
    lease.check();
    await writeRecords(true);
    const gone = [...records].filter(([, r]) => r === null).map(([domain]) => recordPath(domain));
    if (gone.length > 0) await store.remove(gone);
  } catch (error) {
    // Record what is known to be stored, so a re-run sends only the rest (best effort).
    if (!lease.lost) await writeRecords(false).catch(() => {});
    throw error;
  }
  return { uploaded: done, bytes };
}

async function publishArchive(source: Source, target: Target, options: PublishOptions, started: number): Promise<PublishSummary> {
  const files = await completeDigests(options.domains === undefined ? source.files : domainsOnly(source, options.domains), null);
  const plan: Plan = { uploads: files.map((file) => ({ file, reason: "new" })), deletes: [], recordedDeletes: 0, recorded: 0, skipped: 0, bytes: files.reduce((s, f) => s + f.size, 0) };
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
  });
  if (options.dryRun) return summary(0, true);
  const published = { date: source.info.date, files: new Map(files.map((f) => [f.path, entryOf(f)])) };
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

const pick = (entries: ReadonlyMap<string, PublishedEntry>, paths: readonly string[]) => {
  const out = new Map<string, PublishedEntry>();
  for (const rel of paths) {
    const e = entries.get(rel);
    if (e !== undefined) out.set(rel, e);
  }
  return out;
};

/** What a record says of a file the target holds. */
function entryOf(file: SourceFile, mtimeMs?: number): PublishedEntry {
  return {
    size: file.size,
    md5: file.md5,
    ...(file.key !== undefined ? { key: file.key } : {}),
    contentType: file.contentType,
    cacheControl: file.cacheControl,
    ...(file.contentDisposition ? { contentDisposition: file.contentDisposition } : {}),
    ...(mtimeMs !== undefined ? { mtimeMs } : {}),
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
