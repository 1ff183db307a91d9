import { UserError } from "../../errors.ts";
import { sameHeaders } from "../targets/file-headers.ts";
import type { Phase } from "../source.ts";
import type { TargetState } from "./state.ts";
import type { SourceFile } from "../targets/target.ts";
import { BUILD_INFO_PATH } from "../../output/catalogue-paths.ts";

/**
 * What a publish does, computed before anything changes: the same plan drives the dry run, the
 * delete guard and the real run.
 */

export type Reason = "new" | "changed" | "headers";

export interface Upload {
  file: SourceFile & { phase: Phase };
  reason: Reason;
}

export interface Plan {
  /**
   * In publishing order (phaseIndex): media; new files (nothing links to them yet); changed files
   * (they may link to the new ones); entry documents (build.json last). By path within each.
   */
  uploads: Upload[];
  /** Files the target holds that the build does not; removed after every upload. Sorted. */
  deletes: string[];
  /** How many of the deletes a record lists (files this publisher put there, gone from the build). */
  recordedDeletes: number;
  /** Files the records of the published domains list: what the routine delete rule compares with. */
  recorded: number;
  skipped: number;
  bytes: number;
}

/** Deletes of recorded files up to this share of them are routine churn; more is an accident (a wrong --dir or --to). */
export const ROUTINE_DELETE_SHARE = 0.5;
/** Deletes of files no record lists: a target not made by this publisher, or a wrong --to. */
export const UNRECORDED_DELETES = 500;

/**
 * Upload phases in order: media, new files, changed files, then the entry documents: first pages,
 * then last pages and home pages (a last page links back towards the first: with two pages, to
 * it), then build.json.
 */
export function phaseIndex(u: Upload): number {
  if (u.file.phase === "media") return 0;
  if (u.file.phase === "entry")
    return u.file.path === BUILD_INFO_PATH ? 5 : u.file.path.endsWith("/1.json") ? 3 : 4;
  return u.reason === "new" ? 1 : 2;
}

export function makePlan(
  files: readonly (SourceFile & { phase: Phase })[],
  state: TargetState,
  deletable: (rel: string) => boolean,
): Plan {
  const uploads: Upload[] = [];
  let skipped = 0;
  for (const file of files) {
    const reason = reasonFor(file, state);
    if (reason === null) skipped++;
    else uploads.push({ file, reason });
  }
  // Stable sort: paths stay in order within a phase.
  uploads.sort((a, b) => phaseIndex(a) - phaseIndex(b));
  const wanted = new Set(files.map((f) => f.path));
  const candidates = new Set([...state.held.keys(), ...state.known]);
  const deletes = [...candidates].filter((rel) => !wanted.has(rel) && deletable(rel)).sort();
  return {
    uploads,
    deletes,
    recordedDeletes: deletes.filter((rel) => state.known.has(rel)).length,
    recorded: state.known.size,
    skipped,
    bytes: uploads.reduce((sum, u) => sum + u.file.size, 0),
  };
}

function reasonFor(file: SourceFile, state: TargetState): Reason | null {
  const held = state.held.get(file.path);
  if (held === undefined) return "new";
  if (held.md5 !== file.md5 || held.size !== file.size) return "changed";
  // Same bytes: the record says with which headers they were stored. Its MD5 must match too,
  // or the entry describes an earlier upload of that path (an interrupted publish).
  const recorded = state.published.get(file.path);
  if (recorded === undefined || recorded.md5 !== file.md5 || !sameHeaders(recorded, file))
    return "headers";
  return null;
}

/**
 * The delete guard, checked before the first change (all or nothing). With an explicit
 * `--max-deletes N`, at most N deletes. Without it, deletes of files a record lists (what the
 * build no longer has: a night's churn is a few percent) pass up to half of the recorded files,
 * and at most 500 files no record lists: what it stops is a wrong `--dir` (most of the target
 * would go) or a wrong `--to` (files this publisher never put there).
 */
export function checkDeletes(plan: Plan, maxDeletes: number | undefined, target: string): void {
  const n = plan.deletes.length;
  const allow = `then run again with --max-deletes ${n} to allow it`;
  const check = "Check --to and --dir (run with --dry-run to see the list)";
  if (maxDeletes !== undefined) {
    if (n <= maxDeletes) return;
    throw new UserError(
      `publishing would delete ${n} files from ${target}, more than --max-deletes ${maxDeletes}; nothing was changed. ${check}, ${allow}`,
    );
  }
  const unrecorded = n - plan.recordedDeletes;
  if (unrecorded > UNRECORDED_DELETES) {
    throw new UserError(
      `publishing would delete ${unrecorded} files from ${target} that no publish recorded (more than ${UNRECORDED_DELETES}); nothing was changed. ${check}, ${allow}`,
    );
  }
  if (plan.recordedDeletes > plan.recorded * ROUTINE_DELETE_SHARE) {
    throw new UserError(
      `publishing would delete ${plan.recordedDeletes} of the ${plan.recorded} files recorded at ${target} (more than half); nothing was changed. ${check}, ${allow}`,
    );
  }
}
