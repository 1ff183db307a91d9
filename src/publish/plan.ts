import { UserError } from "../errors.ts";
import { sameHeaders } from "./headers.ts";
import type { Phase } from "./source.ts";
import { PUBLISHED_PATH, type SourceFile, type TargetState } from "./target.ts";

/**
 * What a publish does, computed before anything changes: the same plan drives the dry run, the
 * `--max-deletes` guard and the real run.
 */

export type Reason = "new" | "changed" | "headers";

export interface Upload {
  file: SourceFile & { phase: Phase };
  reason: Reason;
}

export interface Plan {
  /** In publishing order: media, then pages, then entry documents; by path within each. */
  uploads: Upload[];
  /** Files the target holds that the build does not; removed last. Sorted. */
  deletes: string[];
  skipped: number;
  bytes: number;
}

const PHASES: Phase[] = ["media", "pages", "entry"];

export function makePlan(source: { files: readonly (SourceFile & { phase: Phase })[] }, state: TargetState): Plan {
  const uploads: Upload[] = [];
  let skipped = 0;
  for (const file of source.files) {
    const reason = reasonFor(file, state);
    if (reason === null) skipped++;
    else uploads.push({ file, reason });
  }
  // Stable sort: paths stay in order within a phase.
  uploads.sort((a, b) => PHASES.indexOf(a.file.phase) - PHASES.indexOf(b.file.phase));
  const wanted = new Set(source.files.map((f) => f.path));
  const deletes = [...state.files.keys()].filter((rel) => !wanted.has(rel) && rel !== PUBLISHED_PATH).sort();
  return { uploads, deletes, skipped, bytes: uploads.reduce((sum, u) => sum + u.file.size, 0) };
}

function reasonFor(file: SourceFile, state: TargetState): Reason | null {
  const held = state.files.get(file.path);
  if (held === undefined) return "new";
  if (held.md5 !== file.md5 || held.size !== file.size) return "changed";
  // Same bytes: the manifest says with which headers they were stored. Its MD5 must match too,
  // or the entry describes an earlier upload of that path (an interrupted publish).
  const recorded = state.published?.get(file.path);
  if (recorded === undefined || recorded.md5 !== file.md5 || !sameHeaders(recorded, file)) return "headers";
  return null;
}

/** How many deletes a publish makes without being told `--max-deletes`. */
export const DEFAULT_MAX_DELETES = 500;

/** All or nothing: checked before the first upload, so a wrong target or an empty build changes nothing. */
export function checkDeletes(plan: Plan, maxDeletes: number, target: string): void {
  if (plan.deletes.length <= maxDeletes) return;
  throw new UserError(
    `publishing would delete ${plan.deletes.length} files from ${target}, more than --max-deletes ${maxDeletes}; ` +
      `nothing was changed. Check --to and --dir (run with --dry-run to see the list), ` +
      `then run again with --max-deletes ${plan.deletes.length} to allow it`,
  );
}
