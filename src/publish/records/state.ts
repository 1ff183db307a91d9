import { BUILD_INFO_PATH, type BuildInfo } from "../../output/build-info.ts";
import { mapLimit } from "../../util/concurrency.ts";
import { LEASES_FOLDER } from "./lease.ts";
import { decodeManifest } from "./legacy-manifest.ts";
import type { RecordCache } from "./record-cache.ts";
import { decodeRecord, RECORDS_FOLDER, type DomainRecord } from "./records.ts";
import {
  LEGACY_PUBLISHED_PATH,
  type Listed,
  type PublishedEntry,
  type Store,
} from "../targets/target.ts";
import { CATALOGUE_DIR } from "../../output/catalogue-paths.ts";

/**
 * What a target holds of the domains a publish owns. A domain with a complete record is taken
 * from it: one small read, no listing. A domain without one (never published, a record left
 * `updating` by a killed run, a target of an older version) has its folders listed, with its
 * record (or the older whole-target manifest) for the keys and headers. `--verify` lists
 * everything, one listing per top-level folder at once.
 */

export interface TargetState {
  /** What the target holds of the scope's paths (size and MD5), by record or by listing. */
  held: Map<string, { size: number; md5: string }>;
  /** The records' entries (keys, headers, mtimes) for files whose MD5 they still match. */
  published: Map<string, PublishedEntry>;
  /** Every path a record (or the older manifest) of the scope lists, pending ones included. */
  known: Set<string>;
  /** The stored record of each domain read (null: none, or not ours). */
  records: Map<string, DomainRecord | null>;
  /** The MD5 of each record as stored, to see whether another publisher changed one since. */
  recordTags: Map<string, string>;
  /** build.json as the target holds it (null: absent), with its bytes when a scoped publish merges it. */
  buildJson: { md5: string; bytes: Buffer | null } | null;
  /** The target still has the older whole-target manifest (removed by a whole publish). */
  legacy: boolean;
  /** Whether anything was listed beyond `_catalogue/` (the slow path). */
  listed: boolean;
}

export interface StateOptions {
  /** The domains this publish owns. */
  domains: string[];
  /** A whole-target publish: it also owns domains recorded there that the build no longer has. */
  whole: boolean;
  verify: boolean;
  /** Whether build.json's bytes are needed (a scoped publish merges its domains into it). */
  readBuildJson: boolean;
  /** Where the records are read from (record-cache.ts). */
  records: RecordCache;
  /** The listing of `_catalogue/`, when the caller has just made it. */
  catalogue?: Map<string, Listed>;
}

export async function readState(
  store: Store,
  info: BuildInfo,
  options: StateOptions,
): Promise<TargetState> {
  const catalogue = options.catalogue ?? (await store.list(`${CATALOGUE_DIR}/`));
  const recordTags = new Map<string, string>();
  for (const [rel, listed] of catalogue)
    if (rel.startsWith(RECORDS_FOLDER) && rel.endsWith(".tsv"))
      recordTags.set(rel.slice(RECORDS_FOLDER.length, -4), listed.md5);
  const hasRecords = recordTags.size > 0;
  const legacy = catalogue.has(LEGACY_PUBLISHED_PATH);
  if (!hasRecords && !legacy) await store.claimable(false);

  // Owned domains: the scope, and for a whole publish every recorded one (those gone from the build are removed).
  const owned = new Set(options.domains);
  if (options.whole) for (const domain of recordTags.keys()) owned.add(domain);
  const records = new Map<string, DomainRecord | null>();
  const read = [...owned].filter((d) => recordTags.has(d));
  const [decoded, legacyFiles, buildBytes] = await Promise.all([
    mapLimit(read, 8, async (domain) => {
      const bytes = await options.records.read(domain, recordTags.get(domain));
      return bytes === null ? null : decodeRecord(bytes);
    }),
    legacy
      ? store.get(LEGACY_PUBLISHED_PATH).then((b) => (b === null ? null : decodeManifest(b)))
      : null,
    options.readBuildJson && catalogue.has(BUILD_INFO_PATH) ? store.get(BUILD_INFO_PATH) : null,
  ]);
  for (const domain of owned) records.set(domain, null);
  read.forEach((domain, i) => records.set(domain, decoded[i] ?? null));

  const held = new Map<string, { size: number; md5: string }>();
  const published = new Map<string, PublishedEntry>();
  const known = new Set<string>();
  for (const record of records.values()) {
    if (record === null) continue;
    for (const [rel, entry] of record.files) {
      published.set(rel, entry);
      known.add(rel);
      if (record.state === "complete" && !options.verify)
        held.set(rel, { size: entry.size, md5: entry.md5 });
    }
    for (const rel of record.pending) known.add(rel);
  }

  // What must be listed: everything (verify; a whole target with no record at all), else the
  // folders of the owned domains that have no complete record.
  const untrusted = [...owned].filter((d) => records.get(d)?.state !== "complete");
  let prefixes: string[];
  if (options.verify) {
    // The target's top-level folders, and those the build and the records name (some stores'
    // listings by delimiter miss folders that hold no object directly, as s3rver's does).
    const tops = new Set(await store.top());
    const top = (rel: string) => (rel.includes("/") ? rel.slice(0, rel.indexOf("/") + 1) : rel);
    for (const d of info.domains) tops.add(top(`${d.domain}/`)).add(top(`${d.media_folder}/`));
    for (const rel of known) tops.add(top(rel));
    tops.delete("_catalogue/");
    prefixes = [...tops].sort();
  } else if (options.whole && !hasRecords) prefixes = [""];
  else {
    const folders = new Set<string>();
    for (const domain of untrusted) {
      folders.add(`${domain}/`);
      const media = info.domains.find((d) => d.domain === domain)?.media_folder;
      if (media !== undefined) folders.add(`${media}/`);
    }
    // A folder inside another listed one is listed with it.
    prefixes = [...folders].filter((f) => ![...folders].some((g) => g !== f && f.startsWith(g)));
  }
  if (legacyFiles !== null && legacyFiles !== undefined) {
    for (const [rel, entry] of legacyFiles) {
      if (!published.has(rel)) published.set(rel, entry);
      known.add(rel);
    }
  }
  const listings = await Promise.all(prefixes.map((prefix) => store.list(prefix, published)));
  for (const listing of listings) {
    for (const [rel, listed] of listing) {
      if (
        rel.startsWith(RECORDS_FOLDER) ||
        rel.startsWith(LEASES_FOLDER) ||
        rel === LEGACY_PUBLISHED_PATH ||
        rel === BUILD_INFO_PATH
      )
        continue;
      held.set(rel, { size: listed.size, md5: listed.md5 });
    }
  }
  // An entry whose MD5 the target no longer has describes an earlier upload: it says nothing.
  for (const [rel, entry] of published) {
    const h = held.get(rel);
    if (h !== undefined && h.md5 !== entry.md5) published.delete(rel);
  }
  const buildListed: Listed | undefined = catalogue.get(BUILD_INFO_PATH);
  return {
    held,
    published,
    known,
    records,
    recordTags,
    buildJson:
      buildListed === undefined ? null : { md5: buildListed.md5, bytes: buildBytes ?? null },
    legacy,
    listed: prefixes.length > 0,
  };
}
