import path from "node:path";
import { BUILD_INFO_PATH, type BuildInfo } from "../../output/build-info.ts";
import { mapLimit } from "../../util/concurrency.ts";
import { completeDigests } from "./md5s.ts";
import { headersFor, sameHeaders, type FileHeaders } from "../targets/file-headers.ts";
import { phaseIndex, type Plan, type Upload } from "./plan.ts";
import type { Decision } from "./compare.ts";
import type { BuildChanges } from "../options.ts";
import type { RecordCache } from "./record-cache.ts";
import {
  entryOf,
  isPendingAt,
  lineAt,
  parseLine,
  patchRecord,
  recordLines,
  RECORDS_FOLDER,
  type RecordLines,
} from "./records.ts";
import { ownersIn, phaseOf, UNPUBLISHED, type BuildFile } from "../source.ts";
import { LEGACY_PUBLISHED_PATH, type Listed, type PublishedEntry } from "../targets/target.ts";

/**
 * The plan of a deploy from what its build changed, instead of comparing every file (publishing
 * a small change costs the upload of the changed files).
 *
 * The build hands over its file list, each entry marked `fresh` when its bytes differ from the
 * version it replaced, and that version's inputs keys (BuildChanges, src/pipeline/pipeline.ts). A record is written
 * `complete` only when the target holds exactly the domain's files of the build whose inputs key
 * it names (publish.ts), and that key changes with anything those files are made of. So when every
 * domain's record is complete with the key of the version the build replaced, the target holds
 * that version's files, and what differs from the build is exactly: the fresh files (uploads),
 * the recorded files the build no longer has (deletes), and the files stored with headers other
 * than the build's (read off the records' lines, which the new records are patched from).
 *
 * Any doubt answers null and the caller compares everything: a scoped (`--domain`) publish, a
 * record missing, updating, of another build or of a domain the build lacks, the older manifest,
 * a file that no domain owns, a recorded file that its domain no longer owns, or a domain whose
 * files are not exactly its record's plus its new ones.
 */

export type { BuildChanges };

/** What the quick plan needs of the build besides its changes. */
export interface BuiltVersion {
  /** The resolved build version. */
  dir: string;
  info: BuildInfo;
  /** Each domain's inputs key in this build. */
  inputs: Record<string, string>;
}

export async function planFromChanges(
  built: BuiltVersion,
  changes: BuildChanges,
  catalogue: ReadonlyMap<string, Listed>,
  records: RecordCache,
): Promise<Decision | null> {
  const { info, dir } = built;
  const names = info.domains.map((d) => d.domain);
  if (catalogue.has(LEGACY_PUBLISHED_PATH)) return null;
  const recordTags = new Map<string, string>();
  for (const [rel, listed] of catalogue)
    if (rel.startsWith(RECORDS_FOLDER) && rel.endsWith(".tsv"))
      recordTags.set(rel.slice(RECORDS_FOLDER.length, -4), listed.md5);
  // A whole publish also removes the records of domains the build no longer has: the full comparison does.
  if (
    recordTags.size !== names.length ||
    names.some(
      (d) =>
        !recordTags.has(d) ||
        changes.previousKeys[d] === undefined ||
        built.inputs[d] === undefined,
    )
  )
    return null;

  const ownersOf = ownersIn(info);
  // Every published file of the build is owned by a domain; the fresh ones are uploaded.
  const owned = new Map(names.map((d) => [d, 0]));
  const fresh: string[] = [];
  let published = 0;
  for (const [rel, isFresh] of changes.files.paths()) {
    if (UNPUBLISHED.has(rel)) continue;
    published++;
    if (rel === BUILD_INFO_PATH) continue;
    const owners = ownersOf(rel);
    if (owners.length === 0) return null;
    for (const d of owners) owned.set(d, owned.get(d)! + 1);
    if (isFresh) fresh.push(rel);
  }

  const stored = await mapLimit(names, 8, async (domain) => {
    const bytes = await records.read(domain, recordTags.get(domain));
    return bytes === null ? null : recordLines(bytes);
  });
  // The files that may differ from the target, with what their record says (a fresh file may
  // only have a new key: its bytes, once hashed, decide whether it is uploaded).
  const candidates = new Map<string, Candidate>();
  const deletes = new Set<string>();
  const changed = new Map<string, string[]>();
  const sharedMedia = new Set<string>();
  let recorded = 0;
  for (const [i, domain] of names.entries()) {
    const record = stored[i];
    if (
      record == null ||
      record.head.domain !== domain ||
      record.head.state !== "complete" ||
      record.head.inputs !== changes.previousKeys[domain]
    )
      return null;
    const mine: string[] = [];
    let kept = 0;
    for (const [j, rel] of record.paths.entries()) {
      const owners = ownersOf(rel);
      if (isPendingAt(record, j) || !owners.includes(domain)) return null;
      if (owners.length === 1) recorded++;
      else sharedMedia.add(rel);
      const isFresh = changes.files.freshness(rel);
      if (isFresh === undefined) {
        deletes.add(rel);
        mine.push(rel);
        continue;
      }
      kept++;
      // Same bytes as the target holds (not fresh): uploaded again only when stored with other headers.
      if (!isFresh && storedWith(record, j, headersFor(rel, info))) continue;
      const entry = parseLine(lineAt(record, j))?.entry;
      if (entry == null) return null;
      candidates.set(rel, { reason: isFresh ? "changed" : "headers", stored: entry });
      mine.push(rel);
    }
    for (const rel of fresh) {
      if (!ownersOf(rel).includes(domain) || has(record, rel)) continue;
      if (!candidates.has(rel)) candidates.set(rel, { reason: "new", stored: null });
      mine.push(rel);
      kept++;
    }
    if (kept !== owned.get(domain)) return null;
    changed.set(domain, mine.sort());
  }

  const buildJson = changes.files.get(BUILD_INFO_PATH);
  const storedBuildJson = catalogue.get(BUILD_INFO_PATH);
  if (buildJson?.md5 === undefined) return null;
  if (storedBuildJson?.md5 !== buildJson.md5)
    candidates.set(BUILD_INFO_PATH, {
      reason: storedBuildJson === undefined ? "new" : "changed",
      stored: null,
    });

  // Keyed files have no MD5 in the build's list: the candidates are hashed (what they would be to upload).
  const files = await completeDigests(
    [...candidates].map(([rel, c]): BuildFile => {
      const entry = changes.files.get(rel)!;
      return {
        path: rel,
        size: entry.size,
        md5: entry.md5 ?? (c.reason === "headers" ? c.stored!.md5 : undefined),
        key: entry.key,
        abs: path.join(dir, rel),
        bytes: null,
        ...headersFor(rel, info),
        phase: phaseOf(rel, info),
      };
    }),
    null,
  );
  const uploads: Upload[] = [];
  // Files whose bytes and headers the target already has under another key: only their record line changes.
  const rekeyed = new Map<string, PublishedEntry>();
  for (const file of files) {
    const { reason, stored: held } = candidates.get(file.path)!;
    if (
      reason === "changed" &&
      held !== null &&
      held.md5 === file.md5 &&
      held.size === file.size &&
      sameHeaders(held, file)
    )
      rekeyed.set(file.path, entryOf(file, held.mtimeMs));
    else uploads.push({ file, reason });
  }
  // By path, then (a stable sort) by phase: the order makePlan gives.
  uploads
    .sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0))
    .sort((a, b) => phaseIndex(a) - phaseIndex(b));
  const plan: Plan = {
    uploads,
    deletes: [...deletes].sort(),
    recordedDeletes: deletes.size,
    recorded: recorded + sharedMedia.size,
    skipped: published - uploads.length,
    bytes: uploads.reduce((sum, u) => sum + u.file.size, 0),
  };
  const touched = names.filter(
    (d, i) =>
      changed.get(d)!.length > 0 ||
      stored[i]!.head.inputs !== built.inputs[d] ||
      stored[i]!.head.date !== info.date,
  );
  return {
    plan,
    touched,
    gone: [],
    owned: names,
    recordTags,
    legacy: false,
    quick: true,
    record(domain, complete, done, deleted) {
      let pending = false;
      const lines = changed
        .get(domain)!
        .map((rel): readonly [string, PublishedEntry | "pending" | null] => {
          const change = deletes.has(rel)
            ? deleted
              ? null
              : "pending"
            : (rekeyed.get(rel) ?? done.get(rel) ?? "pending");
          if (change === "pending") pending = true;
          return [rel, change];
        });
      const head = {
        domain,
        state: complete && !pending ? "complete" : "updating",
        date: info.date,
        inputs: built.inputs[domain],
      } as const;
      return patchRecord(stored[names.indexOf(domain)]!, head, lines);
    },
  };
}

interface Candidate {
  reason: Upload["reason"];
  /** What the domain's record says the target holds at that path (null: nothing). */
  stored: PublishedEntry | null;
}

/** Whether a record lists `rel` (its paths are sorted). */
function has(record: RecordLines, rel: string): boolean {
  let lo = 0;
  let hi = record.paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (record.paths[mid]! < rel) lo = mid + 1;
    else hi = mid;
  }
  return record.paths[lo] === rel;
}

/**
 * Whether the stored i-th line's header cells (content type, cache control, disposition) are
 * `h`: compared in place, without cutting the cells out of the record nor joining the expected ones.
 */
function storedWith(record: RecordLines, i: number, h: FileHeaders): boolean {
  const { text } = record;
  const end = record.starts[i + 1]! - 1;
  let at = record.starts[i]! - 1;
  for (let n = 0; n < 4 && at >= 0; n++) at = text.indexOf("\t", at + 1);
  if (at < 0 || at >= end) return false;
  for (const cell of [h.contentType, h.cacheControl, h.contentDisposition ?? ""]) {
    if (!text.startsWith(cell, at + 1)) return false;
    at += cell.length + 1;
    if (at >= end || text.charCodeAt(at) !== 9) return false;
  }
  return true;
}
