import { UserError } from "../../errors.ts";
import {
  checkDeletes,
  ROUTINE_DELETE_SHARE,
  UNRECORDED_DELETES,
} from "../../publish/records/plan.ts";
import type { PublishOptions, PublishSummary } from "../../publish/publish.ts";
import { defineCommand, type CliIO } from "../command.ts";
import { OPTIONS, pick, type Values } from "../option-table.ts";

// What runs is imported on use: `catalogue --help` loads no command's dependencies.

/** `--max-deletes`, its help naming the guard's limits (option-table.ts loads no publish module). */
export const maxDeletes = {
  ...OPTIONS["max-deletes"],
  help: `allow at most N deletes. Without it, deletes of files the target's records list pass up to ${ROUTINE_DELETE_SHARE * 100} % of them (a day's churn), and at most ${UNRECORDED_DELETES} files no record lists: a wrong --dir or --to stops before any change`,
} as const;

/** What an s3:// target reads from the environment (src/publish/targets/s3.ts, and the AWS SDK's default chain). */
export const credentialsHelp = `
S3 credentials, from the environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with
AWS_SESSION_TOKEN for temporary ones); without them, the AWS SDK's default chain: AWS_PROFILE
(~/.aws/credentials and ~/.aws/config, or AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE), SSO,
web identity (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN), container and instance roles. The region:
AWS_REGION or AWS_DEFAULT_REGION (else the profile's, else us-east-1). CATALOGUE_S3_TIMEOUT: the
seconds a stalled request waits before it is retried (default 60).`;

const publishOptions = {
  ...pick("to", "endpoint"),
  dir: { ...OPTIONS.dir, help: "the built output to publish (default: dist)" },
  "dry-run": OPTIONS["dry-run"],
  "max-deletes": maxDeletes,
  ...pick("verify", "prune-media"),
  domain: {
    ...OPTIONS.domain,
    help: "publish only this domain (repeatable): on S3 or a folder, its folder and its entry in build.json, beside what others publish there; an archive holds it only",
  },
};

/** The values `publishRequest` reads, which `publish` and `deploy` both declare. */
type TargetValues = Pick<
  Values<typeof publishOptions>,
  "to" | "endpoint" | "dry-run" | "max-deletes" | "verify" | "prune-media" | "domain"
>;

export const publishCommand = defineCommand({
  options: publishOptions,
  more: `${credentialsHelp}

Examples:
  npx catalogue publish --to s3://my-bucket/catalogue
  npx catalogue publish --to /srv/www/catalogue
  npx catalogue publish --to catalogue-2026-12-01.tar.gz`,
  async run(values, _positionals, io) {
    const options = await publishRequest(values, values.dir, io);
    await runPublish({ ...options, dir: values.dir }, io);
  },
});

/** The target and guard options of `publish` and `deploy`, checked. */
export async function publishRequest(
  values: TargetValues,
  dir: string,
  io: CliIO,
): Promise<Omit<PublishOptions, "dir">> {
  const to = values.to;
  if (to === undefined)
    throw new UserError("--to is required: s3://bucket/prefix, a folder, or a .zip / .tar.gz file");
  refuseUnwrittenArchive(to);
  const { openTarget } = await import("../../publish/open-target.ts");
  const target = await openTarget(to, {
    dir,
    endpoint: values.endpoint,
    env: io.env,
    notice: (line) => io.stderr.write(`${line}\n`),
  });
  // Before a deploy's build: an archive has nothing to prune.
  if (values["prune-media"] && (target as { kind?: string }).kind !== "store")
    throw (await import("../../publish/records/prune.ts")).archiveHasNoMedia(target.name);
  return {
    target,
    domains: values.domain,
    dryRun: values["dry-run"],
    maxDeletes: parseCount(values["max-deletes"]),
    verify: values.verify,
    pruneMedia: values["prune-media"],
  };
}

/**
 * An archive the publisher does not write: without this, `--to site.rar` made a folder of that
 * name. A folder may still be named like a host (www.example.org) or end with a slash.
 */
function refuseUnwrittenArchive(to: string) {
  if (to.startsWith("s3://") || /[/\\]$/.test(to)) return;
  const unwritten = /(\.tar)?\.(rar|7z|tar|xz|bz2|gz|zst|lz|lzma|tbz2?|txz|tzst|cab|iso)$/i.exec(
    to,
  );
  if (unwritten === null || /\.tar\.gz$/i.test(to)) return;
  const stem = to.slice(0, unwritten.index);
  throw new UserError(
    `--to ${to}: catalogue writes .zip and .tar.gz archives, not ${unwritten[0]}: use ${stem}.zip or ${stem}.tar.gz (or a folder: end the name with /)`,
  );
}

/** Publishes with a progress line on a terminal, then prints the plan (dry run) or one summary line. */
export async function runPublish(
  options: PublishOptions,
  io: CliIO,
  printSummary = true,
): Promise<PublishSummary> {
  const { publish } = await import("../../publish/publish.ts");
  const progress = progressLine(io);
  let summary: PublishSummary;
  try {
    summary = await publish({ ...options, onProgress: progress.update });
  } finally {
    progress.clear();
  }
  if (summary.dryRun) {
    printPlan(summary, io);
    // The dry run foretells the real one, refusal included.
    checkDeletes(summary.plan, options.maxDeletes, summary.target);
    return summary;
  }
  if (printSummary) io.stderr.write(`published to ${summaryLine(summary)}\n`);
  return summary;
}

export function summaryLine(summary: PublishSummary): string {
  const requests = summary.requests === null ? "" : ` (${summary.requests} requests)`;
  return (
    `${summary.target}: ${summary.uploaded} uploaded, ${summary.skipped} skipped, ${summary.deleted} deleted, ` +
    `${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(2)} s${requests}`
  );
}

function parseCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text))
    throw new UserError(`--max-deletes ${text}: expected a whole number (0 forbids any delete)`);
  return Number(text);
}

function printPlan(summary: PublishSummary, io: CliIO) {
  const { plan } = summary;
  const lines: string[] = [];
  for (const u of plan.uploads)
    lines.push(
      `upload  ${u.reason.padEnd(8)} ${u.file.path}  (${formatBytes(u.file.size)}, ${u.file.contentType})`,
    );
  for (const rel of plan.deletes) lines.push(`delete  ${"".padEnd(8)} ${rel}`);
  for (const rel of summary.pruned) lines.push(`delete  ${"unused".padEnd(8)} ${rel}`);
  if (lines.length > 0) io.stdout.write(lines.join("\n") + "\n");
  io.stderr.write(
    `dry run for ${summary.target}: would upload ${plan.uploads.length} (${formatBytes(plan.bytes)}), ` +
      `skip ${plan.skipped}, delete ${plan.deletes.length + summary.pruned.length}; nothing was changed\n`,
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
    update: ({ done, total, bytes }: { done: number; total: number; bytes: number }) => {
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
