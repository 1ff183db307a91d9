import { BUILD_INFO_PATH, parseBuildInfo } from "../../output/build-info.ts";
import { md5 } from "../../util/hash.ts";
import { completeDigests } from "./md5s.ts";
import { makePlan, type Plan } from "./plan.ts";
import type { PublishOptions } from "../options.ts";
import { encodeRecord, entryOf } from "./records.ts";
import { mergedBuildJson, scopedDeletes } from "./scope.ts";
import { chooseDomains, ownersOf, type BuildFile, type Source } from "../source.ts";
import { readState } from "./state.ts";
import { recordCache } from "./record-cache.ts";
import type { Listed, PublishedEntry, Store } from "../targets/target.ts";
import { CATALOGUE_DIR } from "../../output/catalogue-paths.ts";

/**
 * The full comparison: every file of the build against what the target holds by its records (or
 * by listing), and the records each domain ends with. What a publish does when it cannot plan
 * from the build's changes (changes.ts).
 */

/** Everything a store publish decided before changing anything. */
export interface Decision {
  plan: Plan;
  /** The domains this publish owns: their records are read, and under its lease. */
  owned: string[];
  /** Domains whose stored record must be rewritten. */
  touched: string[];
  /** Domains recorded at the target that the build no longer has: their records go last. */
  gone: string[];
  /** The MD5 of each record read, to see whether another publisher changed one since. */
  recordTags: Map<string, string>;
  /** The target still has the older whole-target manifest. */
  legacy: boolean;
  /** Planned from the build's changes (changes.ts) rather than by comparing every file. */
  quick: boolean;
  /**
   * The bytes of a touched domain's record: `complete` when asked and nothing is pending, the
   * uploads `stored` so far held as they were stored, the deletes gone once `deleted`.
   */
  record(
    domain: string,
    complete: boolean,
    stored: ReadonlyMap<string, PublishedEntry>,
    deleted: boolean,
  ): Buffer;
}

export async function decide(
  source: Source,
  store: Store,
  options: PublishOptions,
  catalogue?: Map<string, Listed>,
): Promise<Decision> {
  const whole = options.domains === undefined;
  const scope = whole ? source.info.domains : chooseDomains(source.info, options.domains!);
  const names = scope.map((d) => d.domain);
  const state = await readState(store, source.info, {
    domains: names,
    whole,
    verify: options.verify ?? false,
    readBuildJson: !whole,
    records: recordCache(store, options.cacheDir),
    catalogue,
  });
  const inScope = (f: BuildFile) => ownersOf(f.path, source.info).some((d) => names.includes(d));
  const chosen = whole
    ? source.files
    : [
        ...source.files.filter(inScope),
        mergedBuildJson(source.info, names, state.buildJson?.bytes ?? null),
      ];
  const files = await completeDigests(chosen, state.published);
  const buildJson = files.find((f) => f.path === BUILD_INFO_PATH);
  if (state.buildJson !== null && buildJson !== undefined) {
    // A listing gives build.json's MD5 (not in any record): the same MD5 is the same file, stored with its fixed headers.
    const same = state.buildJson.md5 === buildJson.md5;
    state.held.set(BUILD_INFO_PATH, { size: same ? buildJson.size : -1, md5: state.buildJson.md5 });
    if (same) state.published.set(BUILD_INFO_PATH, entryOf(buildJson));
  }
  const deletable = whole
    ? (rel: string) => !rel.startsWith(`${CATALOGUE_DIR}/`)
    : scopedDeletes(source.info, names, parseBuildInfo(state.buildJson?.bytes ?? null));
  const plan = makePlan(files, state, deletable);

  const records = new Map<string, { owned: string[]; old: Set<string> } | null>();
  for (const [domain, stored] of state.records) {
    const old = new Set<string>([...(stored?.files.keys() ?? []), ...(stored?.pending ?? [])]);
    for (const rel of plan.deletes) if (rel.startsWith(`${domain}/`)) old.add(rel);
    records.set(domain, names.includes(domain) ? { owned: [], old } : null);
  }
  for (const file of files)
    for (const domain of ownersOf(file.path, source.info))
      records.get(domain)?.owned.push(file.path);
  // What the target holds with known headers once nothing is pending: every file of the build.
  const entries = new Map<string, PublishedEntry>();
  for (const file of files)
    entries.set(file.path, entryOf(file, state.published.get(file.path)?.mtimeMs));
  const uploading = new Set(plan.uploads.map((u) => u.file.path));
  const deletes = new Set(plan.deletes);
  const record = (
    domain: string,
    complete: boolean,
    stored: ReadonlyMap<string, PublishedEntry>,
    deleted: boolean,
  ): Buffer => {
    const r = records.get(domain);
    // Held as recorded: the files not uploaded, and each upload once stored.
    const held = (rel: string) => (uploading.has(rel) ? stored.get(rel) : entries.get(rel));
    const pending = new Set<string>();
    for (const rel of r?.old ?? [])
      if (!(deleted && deletes.has(rel)) && held(rel) === undefined) pending.add(rel);
    const confirmed = new Map<string, PublishedEntry>();
    for (const rel of r?.owned ?? []) {
      const e = held(rel);
      if (e === undefined) pending.add(rel);
      else confirmed.set(rel, e);
    }
    return encodeRecord({
      domain,
      state: complete && pending.size === 0 ? "complete" : "updating",
      date: source.info.date,
      inputs: source.inputs[domain],
      files: confirmed,
      pending,
    });
  };
  // A record is rewritten when anything of its domain changes, or when it is not already the one it would be.
  const changing = new Set([...uploading, ...plan.deletes]);
  const touched = [...records].flatMap(([domain, r]) => {
    if (r === null || options.verify) return [domain];
    if (r.owned.some((rel) => changing.has(rel)) || [...r.old].some((rel) => changing.has(rel)))
      return [domain];
    return md5(record(domain, true, new Map(), true)) === state.recordTags.get(domain)
      ? []
      : [domain];
  });
  const gone = [...records].filter(([, r]) => r === null).map(([domain]) => domain);
  return {
    plan,
    owned: [...records.keys()],
    touched,
    gone,
    recordTags: state.recordTags,
    legacy: state.legacy,
    quick: false,
    record,
  };
}
