import { UserError } from "../../errors.ts";
// What runs is imported on use: `catalogue --help` loads no command's dependencies.
import { checkDeletes, DEFAULT_MAX_DELETES } from "../../publish/plan.ts";
import type { PublishSummary } from "../../publish/publish.ts";
import type { CliIO, Command } from "../command.ts";

export const publishCommand: Command = {
  name: "publish",
  summary: "upload the built output to S3, a folder or an archive, changing only what changed",
  usage: "catalogue publish --to TARGET [--dir DIR] [--endpoint URL] [--dry-run] [--max-deletes N] [--domain HOST]",
  help: `  --to TARGET          s3://bucket/prefix, a folder, or a .zip / .tar.gz file (required)
  --dir DIR            the built output to publish (default: dist)
  --endpoint URL       an S3-compatible store (path-style addressing), e.g. http://127.0.0.1:9000
  --dry-run            list every planned upload (new, changed, headers) and delete; change nothing
  --max-deletes N      refuse, before any change, to delete more than N files (default: ${DEFAULT_MAX_DELETES})
  --domain HOST        publish one domain only: its folder, its media and _catalogue/ (for offline archives)`,
  options: {
    to: { type: "string" },
    dir: { type: "string", default: "dist" },
    endpoint: { type: "string" },
    "dry-run": { type: "boolean", default: false },
    "max-deletes": { type: "string" },
    domain: { type: "string" },
  },
  async run(values, _positionals, io) {
    const to = values.to as string | undefined;
    if (to === undefined) throw new UserError("--to is required: s3://bucket/prefix, a folder, or a .zip / .tar.gz file");
    const maxDeletes = parseCount(values["max-deletes"] as string | undefined);
    const dir = values.dir as string;
    const dryRun = values["dry-run"] as boolean;
    const [{ openTarget }, { publish }] = await Promise.all([import("../../publish/targets.ts"), import("../../publish/publish.ts")]);
    const target = await openTarget(to, { dir, endpoint: values.endpoint as string | undefined, env: io.env });
    const progress = progressLine(io);
    let summary: PublishSummary;
    try {
      summary = await publish({ dir, target, domain: values.domain as string | undefined, dryRun, maxDeletes, onProgress: progress.update });
    } finally {
      progress.clear();
    }
    if (dryRun) {
      printPlan(summary, io);
      // The dry run foretells the real one, refusal included.
      checkDeletes(summary.plan, maxDeletes, summary.target);
      return;
    }
    const requests = summary.requests === null ? "" : ` (${summary.requests} requests)`;
    io.stderr.write(
      `published to ${summary.target}: ${summary.uploaded} uploaded, ${summary.skipped} skipped, ${summary.deleted} deleted, ` +
        `${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(2)} s${requests}\n`,
    );
  },
};

function parseCount(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_DELETES;
  if (!/^\d+$/.test(text)) throw new UserError(`--max-deletes ${text}: expected a whole number (0 forbids any delete)`);
  return Number(text);
}

function printPlan(summary: PublishSummary, io: CliIO) {
  const { plan } = summary;
  const lines: string[] = [];
  for (const u of plan.uploads) lines.push(`upload  ${u.reason.padEnd(8)} ${u.file.path}  (${formatBytes(u.file.size)}, ${u.file.contentType})`);
  for (const rel of plan.deletes) lines.push(`delete  ${"".padEnd(8)} ${rel}`);
  if (lines.length > 0) io.stdout.write(lines.join("\n") + "\n");
  io.stderr.write(
    `dry run for ${summary.target}: would upload ${plan.uploads.length} (${formatBytes(plan.bytes)}), ` +
      `skip ${plan.skipped}, delete ${plan.deletes.length}; nothing was changed\n`,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A progress line on a terminal (redrawn at most ten times a second); nothing otherwise. */
function progressLine(io: CliIO) {
  let last = 0;
  let shown = false;
  return {
    update({ done, total, bytes }: { done: number; total: number; bytes: number }) {
      if (!io.interactive) return;
      const now = performance.now();
      if (now - last < 100 && done < total) return;
      last = now;
      shown = true;
      io.stderr.write(`\r\x1b[Kuploading ${done}/${total} files, ${formatBytes(bytes)}`);
    },
    clear() {
      if (shown) io.stderr.write("\r\x1b[K");
    },
  };
}
