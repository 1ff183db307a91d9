import { setTimeout as delay } from "node:timers/promises";
import { UserError } from "../../errors.ts";
import { BUILD_INFO_PATH, parseBuildInfo, type BuildInfo } from "../../output/build-info.ts";
import { mapLimit } from "../../util/concurrency.ts";
import { acquireLease, LEASES_FOLDER, type Lease, type LeaseOptions } from "./lease.ts";
import { ROUTINE_DELETE_SHARE } from "./plan.ts";
import {
  decodeRecord,
  encodeRecord,
  recordPath,
  RECORDS_FOLDER,
  type DomainRecord,
} from "./records.ts";
import { madeFile } from "../source.ts";
import { LEGACY_PUBLISHED_PATH, type Listed, type Store } from "../targets/target.ts";
import { CATALOGUE_DIR } from "../../output/catalogue-paths.ts";

/**
 * `--prune-media`: removes the media no domain uses from every media folder of the target, while
 * shards may be publishing. A scoped publish never deletes media of a folder another domain
 * uses; an image its domains dropped stays, `pending` in their records, until a whole publish
 * or this. It reads every domain's record (what each uses, or is uploading) and lists the media
 * folders that the target's build.json and the build name. It removes an object only when
 *
 * - no record lists it as a file, nor as pending while its domain is under a live lease (a shard
 *   uploading it now: records are rewritten `updating` before the first upload);
 * - it was written before the prune started, by the store's clock (the prune's own lease):
 *   whatever a shard uploads meanwhile stays;
 * - no record changed since it was read (records rewritten meanwhile are read again).
 *
 * One prune at a time (a lease of its own, which also waits for a whole publish).
 */

/** The lease scope of a prune: overlaps only with another prune and a whole publish (`*`). */
const PRUNE_SCOPE = `${CATALOGUE_DIR}/prune-media`;

export interface PruneOptions {
  dryRun: boolean;
  maxDeletes?: number;
  lease?: LeaseOptions;
}

export const archiveHasNoMedia = (target: string) =>
  new UserError(`--prune-media: ${target} is an archive, written whole: it holds no unused media`);

/** The media removed (or, in a dry run, that would be). */
export async function pruneMedia(
  store: Store,
  info: BuildInfo,
  options: PruneOptions,
): Promise<string[]> {
  const lease = options.dryRun
    ? null
    : await acquireLease(store, [PRUNE_SCOPE], {
        ...options.lease,
        wait: true,
        patienceMs: options.lease?.patienceMs ?? 300_000,
      });
  let domainsLease: Lease | null = null;
  try {
    const since = lease?.since ?? Number.POSITIVE_INFINITY;
    const catalogue = await store.list(`${CATALOGUE_DIR}/`);
    if (catalogue.has(LEGACY_PUBLISHED_PATH)) {
      throw new UserError(
        `--prune-media: ${store.name} was last published by an older version (it has ${LEGACY_PUBLISHED_PATH}); publish every domain once first`,
      );
    }
    const tags = recordTags(catalogue);
    if (tags.size === 0) return [];
    const busy = await leasedDomains(store, catalogue, since, options.lease?.ttlMs ?? 120_000);
    const records = await readRecords(store, [...tags.keys()]);
    const folders = mediaFolders([info, parseBuildInfo(await store.get(BUILD_INFO_PATH))]);
    const listed = new Map<string, Listed>();
    for (const listing of await Promise.all(folders.map((f) => store.list(f))))
      for (const [rel, l] of listing) listed.set(rel, l);
    const inMedia = (rel: string) => folders.some((f) => rel.startsWith(f));

    // Pending media of a domain nobody publishes: an image its domains dropped, or an upload of a
    // killed publisher (its next publish lists that domain and uploads what it lacks).
    const stale = (r: DomainRecord) =>
      !busy.has("*") && !busy.has(r.domain) && [...r.pending].some(inMedia);
    let fixed = records.filter(stale);
    if (!options.dryRun && fixed.length > 0) {
      // Held while their records are rewritten without those paths: no publisher of theirs runs meanwhile.
      domainsLease = await acquireLease(
        store,
        fixed.map((r) => r.domain),
        { ...options.lease, patienceMs: 10_000 },
      ).catch(() => null);
      if (domainsLease === null) fixed = [];
    }
    const used = new Set<string>();
    for (const r of records)
      for (const rel of [...r.files.keys(), ...(fixed.includes(r) ? [] : r.pending)]) used.add(rel);
    let unused = [...listed]
      .filter(([rel, l]) => !used.has(rel) && l.modified < since)
      .map(([rel]) => rel);

    // Records a shard rewrote while this one read: what they list now stays too, and they are not rewritten.
    const now = recordTags(await store.list(RECORDS_FOLDER));
    const moved = new Set(
      [...now].filter(([domain, tag]) => tags.get(domain) !== tag).map(([domain]) => domain),
    );
    for (const r of await readRecords(store, [...moved]))
      for (const rel of [...r.files.keys(), ...r.pending]) used.add(rel);
    unused = unused.filter((rel) => !used.has(rel)).sort();
    checkPrune(unused.length, listed.size, options.maxDeletes, store.name);
    if (options.dryRun) return unused;
    lease!.check();
    if (unused.length > 0) await store.remove(unused);
    // Their pending media are not theirs any more (pruned, absent, or another domain's): the records say so.
    await mapLimit(
      fixed.filter((r) => !moved.has(r.domain)),
      8,
      async (r) => {
        const pending = new Set([...r.pending].filter((rel) => !inMedia(rel)));
        const record: DomainRecord = {
          ...r,
          pending,
          state: pending.size === 0 ? "complete" : "updating",
        };
        await store.put(madeFile(recordPath(r.domain), encodeRecord(record), info));
      },
    );
    return unused;
  } finally {
    await domainsLease?.release().catch(() => {});
    await lease?.release().catch(() => {});
  }
}

const recordTags = (listing: ReadonlyMap<string, Listed>) => {
  const tags = new Map<string, string>();
  for (const [rel, listed] of listing)
    if (rel.startsWith(RECORDS_FOLDER) && rel.endsWith(".tsv"))
      tags.set(rel.slice(RECORDS_FOLDER.length, -4), listed.md5);
  return tags;
};

/** The records of `domains` (one that is not a record of ours stops the prune: what it uses is unknown). */
async function readRecords(store: Store, domains: string[]): Promise<DomainRecord[]> {
  const records = await mapLimit(domains, 8, async (domain) => {
    // A shard publishing meanwhile rewrites its record, and a store that writes in place (s3rver, a
    // folder) may then answer a part of it: read again before calling it foreign.
    for (let attempt = 1; ; attempt++) {
      const bytes = await store.get(recordPath(domain));
      const record = bytes === null ? null : decodeRecord(bytes);
      if (bytes === null || record !== null) return record;
      if (attempt === RECORD_READS)
        throw new UserError(
          `--prune-media: ${store.name}: ${recordPath(domain)} is not a record of this version of catalogue; nothing was pruned`,
        );
      await delay(RECORD_REREAD_MS * attempt);
    }
  });
  return records.filter((r) => r !== null);
}

const RECORD_READS = 4;
const RECORD_REREAD_MS = 250;

/** The domains under a live lease other than the prune's own (`*`: a whole publish). */
async function leasedDomains(
  store: Store,
  catalogue: ReadonlyMap<string, Listed>,
  since: number,
  ttl: number,
): Promise<Set<string>> {
  const busy = new Set<string>();
  // A dry run takes no lease, so has no time of the store's: every lease counts.
  const live = (l: Listed) => !Number.isFinite(since) || since - l.modified <= ttl;
  const leases = [...catalogue].filter(([rel, l]) => rel.startsWith(LEASES_FOLDER) && live(l));
  await mapLimit(leases, 8, async ([rel]) => {
    for (const name of await leaseScope(store, rel)) if (name !== PRUNE_SCOPE) busy.add(name);
  });
  return busy;
}

/**
 * What a listed lease holds: nothing once released (a shard finishing while the prune lists);
 * a lease caught half written (a renewal, in a store that writes in place) is read again; one that
 * stays unreadable is taken for a whole publish.
 */
async function leaseScope(store: Store, rel: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const bytes = await store.get(rel);
    if (bytes === null) return [];
    try {
      const body = JSON.parse(bytes.toString()) as { scope?: unknown };
      if (Array.isArray(body.scope))
        return body.scope.filter((name): name is string => typeof name === "string");
    } catch {
      // read again below
    }
    if (attempt === RECORD_READS) return ["*"];
    await delay(RECORD_REREAD_MS * attempt);
  }
}

/** The distinct media folders the descriptions name (one inside another is listed with it). */
function mediaFolders(infos: (BuildInfo | null)[]): string[] {
  const folders = new Set<string>();
  for (const info of infos)
    for (const d of info?.domains ?? [])
      if (d.media_folder !== d.domain) folders.add(`${d.media_folder}/`);
  return [...folders].filter((f) => ![...folders].some((g) => g !== f && f.startsWith(g))).sort();
}

/** The delete guard of a prune: `--max-deletes`, else at most half of the media held. */
function checkPrune(n: number, held: number, maxDeletes: number | undefined, target: string): void {
  const fix = `nothing was changed. Check --to (run with --dry-run to see the list), then run again with --max-deletes ${n} to allow it`;
  if (maxDeletes !== undefined ? n > maxDeletes : n > held * ROUTINE_DELETE_SHARE) {
    throw new UserError(
      `--prune-media would delete ${n} of the ${held} media files at ${target}, more than ${maxDeletes !== undefined ? `--max-deletes ${maxDeletes}` : "half"}; ${fix}`,
    );
  }
}
