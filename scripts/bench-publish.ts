/**
 * Publishing benchmark: a generated catalogue (20,000 works, 3 domains by default) on one s3rver
 * on loopback, behind a counting proxy. `catalogue deploy` / `publish` (the real command line,
 * end to end with start-up) beside `aws s3 sync --delete` and `rclone sync --checksum` (Debian's
 * awscli and rclone) for: the first publish, a deploy with no change, one work renamed (its new
 * title moves it in name order), and the next day (`--date` + 1). Seconds (medians of --runs for
 * all but the first publish) and requests. With --site, the same for a deploy with the HTML
 * catalogue (the catalogue only), and the rename's build part against a full build.
 *
 * Two renames: a typo fixed (the work keeps its place in name order: its own pages change) and a
 * title that moves the work to the end of the name order (every name-ordered page after its old
 * place changes: the worst case of one edit).
 *
 *   npx tsx scripts/bench-publish.ts [--works 20000] [--domains 3] [--runs 3] [--site] [--peers aws,rclone] [--skip first,moved,next-day,api,site] [--root DIR]
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { startFaultProxy, type FaultProxy } from "../test/publish/fault-proxy.ts";
import { startS3rver } from "../test/support/s3.ts";
import { reportRows, type BenchRow } from "./bench/rows.ts";
import { generateCatalogue } from "./generate.ts";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "bin/catalogue.js");

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "20000" },
    domains: { type: "string", default: "3" },
    runs: { type: "string", default: "3" },
    site: { type: "boolean", default: false },
    root: { type: "string" },
    /** The peer tools to run beside (rclone's full comparisons take minutes each at 20,000 works). */
    peers: { type: "string", default: "aws,rclone" },
    /** Rows left out (a shorter run): first (the first publish's row), moved (the rename that moves the work), next-day, api (every --no-site row), site. */
    skip: { type: "string", default: "" },
  },
});
const skipped = new Set(values.skip.split(",").filter(Boolean));
const wantedPeers = new Set(values.peers.split(","));
const runs = Number(values.runs);
const base =
  values.root ??
  path.join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "catalogue-bench-publish");
const root = path.resolve(base);
const content = path.join(root, "content");
const DATE = new Date("2026-11-20T00:00:00Z");
const day = (n: number) => new Date(DATE.getTime() + n * 86_400_000).toISOString().slice(0, 10);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A peer tool, or why it is missing (the bench says so and goes on). */
function tool(name: string, args: string[]): string | null {
  for (const candidate of [`/usr/bin/${name}`, name])
    if (spawnSync(candidate, args).status === 0) return candidate;
  return null;
}
const AWS = wantedPeers.has("aws") ? tool("aws", ["--version"]) : null;
const RCLONE = wantedPeers.has("rclone") ? tool("rclone", ["version"]) : null;

await rm(root, { recursive: true, force: true });
await mkdir(root, { recursive: true });
console.error(`generating ${values.works} works in ${values.domains} domains in ${root}…`);
await generateCatalogue(content, { works: Number(values.works), domains: Number(values.domains) });
const s3 = await startS3rver(["bench"]);
const proxy: FaultProxy = await startFaultProxy(s3.endpoint, 1, {}, false);
const env = {
  ...process.env,
  ...s3.env,
  AWS_EC2_METADATA_DISABLED: "true",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
};

interface Timed {
  seconds: number;
  requests: number;
  line: string;
}

/** Runs a command, timing it end to end and counting its requests at the proxy. */
async function timed(
  command: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Timed> {
  const before = proxy.forwarded;
  const started = performance.now();
  const childEnv: NodeJS.ProcessEnv = { ...env, ...extraEnv };
  // rclone's S3 client refuses a custom CA bundle on plain HTTP (some machines set AWS_CA_BUNDLE).
  if (command === RCLONE) delete childEnv.AWS_CA_BUNDLE;
  const { stderr } = await exec(command, args, { env: childEnv, maxBuffer: 1 << 28, cwd: root });
  return {
    seconds: (performance.now() - started) / 1000,
    requests: proxy.forwarded - before,
    line: stderr.trim().split("\n").at(-1) ?? "",
  };
}

const out = (name: string) => path.join(root, name);
const deploy = (name: string, date: string, extra: string[] = []) =>
  timed(process.execPath, [
    CLI,
    "deploy",
    "--content",
    content,
    "--out",
    out(name),
    "--date",
    date,
    "--cache",
    path.join(root, "cache"),
    "--to",
    `s3://bench/${name}`,
    "--endpoint",
    proxy.endpoint,
    ...extra,
  ]);
const publish = (name: string, dir: string) =>
  timed(process.execPath, [
    CLI,
    "publish",
    "--dir",
    dir,
    "--to",
    `s3://bench/${name}`,
    "--endpoint",
    proxy.endpoint,
  ]);
const awsSync = (dir: string, prefix: string) =>
  timed(
    AWS!,
    [
      "s3",
      "sync",
      `${dir}/`,
      `s3://bench/${prefix}`,
      "--delete",
      "--endpoint-url",
      proxy.endpoint,
      "--only-show-errors",
    ],
    { AWS_REQUEST_CHECKSUM_CALCULATION: "when_required" },
  );
const rcloneSync = (dir: string, prefix: string) =>
  timed(
    RCLONE!,
    ["sync", "--checksum", "--s3-no-check-bucket", `${dir}/`, `bench:bench/${prefix}`],
    {
      RCLONE_CONFIG_BENCH_TYPE: "s3",
      RCLONE_CONFIG_BENCH_PROVIDER: "Other",
      RCLONE_CONFIG_BENCH_ENDPOINT: proxy.endpoint,
      RCLONE_CONFIG_BENCH_ACCESS_KEY_ID: "S3RVER",
      RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY: "S3RVER",
      RCLONE_CONFIG_BENCH_FORCE_PATH_STYLE: "true",
    },
  );

const csv = path.join(content, "audiovisuals.csv");
const original = await readFile(csv, "utf8");
// Work 1 gets a title that moves it to the end of name order, or one that keeps its place; every
// other run puts it back (the same pages change each time).
const renames = {
  moved: {
    text: original.replace(/\n1,[^,]+,/, "\n1,Zzz título renombrado,"),
    label: "moved to the end of the name order",
  },
  inPlace: {
    text: original.replace(/\n1,([^,]+),/, "\n1,$1 (restaurada),"),
    label: "keeping its place in name order",
  },
};
let renamed = 0;
let kind: keyof typeof renames = "moved";
const rename = () => writeFile(csv, ++renamed % 2 === 1 ? renames[kind].text : original);

const rows: BenchRow[] = [];
/** Each row as soon as it is measured (a long run that fails later still shows them). */
const report = (row: BenchRow) => {
  rows.push(row);
  console.error(
    `ROW | ${row.measure} | ${row.ours} | ${row.peer ?? ""} | ${row.ratio ?? ""} | ${row.target ?? ""} |`,
  );
};
const fmt = (t: Timed) => `${t.seconds.toFixed(2)} s, ${t.requests} requests`;
const med = (ts: Timed[]) => ({
  seconds: median(ts.map((t) => t.seconds)),
  requests: median(ts.map((t) => t.requests)),
  line: ts[0]!.line,
});
const peers = (label: string, aws: Timed | null, rclone: Timed | null) =>
  [
    aws ? `aws s3 sync ${fmt(aws)}` : "aws: missing",
    rclone ? `rclone ${fmt(rclone)}` : "rclone: missing",
  ].join("; ") + (label ? ` (${label})` : "");

try {
  if (!skipped.has("api")) {
    // The build the peers sync: the same output the catalogue deploys (built by its first deploy).
    console.error("first publish (catalogue: deploy of a fresh build; peers: sync of that build)…");
    const first = await deploy("cat", day(0), ["--no-site"]);
    const built = out("cat");
    console.error(`  ${first.line}`);
    if (skipped.has("first")) {
      // The peers' later rows sync against a copy they hold.
      if (AWS) await awsSync(built, "aws");
      if (RCLONE) await rcloneSync(built, "rclone");
    }
    const firstPublish = skipped.has("first") ? null : await publish("cat-publish", built);
    const awsFirst = AWS && firstPublish ? await awsSync(built, "aws") : null;
    const rcloneFirst = RCLONE && firstPublish ? await rcloneSync(built, "rclone") : null;
    if (firstPublish)
      report({
        measure: "first publish, --no-site (publish of the build)",
        ours: fmt(firstPublish),
        peer: peers("", awsFirst, rcloneFirst),
        ratio: awsFirst
          ? `${(awsFirst.seconds / firstPublish.seconds).toFixed(2)}x faster than aws`
          : "",
        target: ">= 2x faster than aws s3 sync",
      });

    console.error("no change…");
    const noChange = med(await repeat(() => deploy("cat", day(0), ["--no-site"])));
    const awsNoChange = AWS ? med(await repeat(() => awsSync(built, "aws"))) : null;
    const rcloneNoChange = RCLONE ? med(await repeat(() => rcloneSync(built, "rclone"))) : null;
    report({
      measure: "no-change deploy --no-site, end to end",
      ours: fmt(noChange),
      peer: peers("sync alone", awsNoChange, rcloneNoChange),
      target: `<= 1.5 s, <= ${2 + Number(values.domains)} requests`,
    });

    for (kind of (["inPlace", "moved"] as const).filter(
      (k) => !(k === "moved" && skipped.has("moved")),
    )) {
      console.error(`one work renamed, ${renames[kind].label}…`);
      const renamedRuns: Timed[] = [];
      const awsRenamed: Timed[] = [];
      const rcloneRenamed: Timed[] = [];
      for (let i = 0; i < runs; i++) {
        await rename();
        renamedRuns.push(await deploy("cat", day(0), ["--no-site"]));
        if (AWS) awsRenamed.push(await awsSync(built, "aws"));
        if (RCLONE) rcloneRenamed.push(await rcloneSync(built, "rclone"));
      }
      const r = med(renamedRuns);
      report({
        measure: `one work renamed (${renames[kind].label}), deploy --no-site, end to end (build and publish)`,
        ours: `${fmt(r)}; ${/: (\d+) uploaded/.exec(r.line)?.[1] ?? "?"} files uploaded`,
        peer: peers(
          "sync alone, after our build",
          AWS ? med(awsRenamed) : null,
          RCLONE ? med(rcloneRenamed) : null,
        ),
        target: "<= 5 s",
      });
      console.error(`  ${renamedRuns.at(-1)!.line}`);
      if (renamed % 2 === 1) {
        await rename();
        await deploy("cat", day(0), ["--no-site"]);
        if (AWS) await awsSync(built, "aws");
        if (RCLONE) await rcloneSync(built, "rclone");
      }
    }

    if (!skipped.has("next-day")) {
      console.error("next day…");
      const nextDays: Timed[] = [];
      const awsNext: Timed[] = [];
      const rcloneNext: Timed[] = [];
      for (let i = 1; i <= runs; i++) {
        nextDays.push(await deploy("cat", day(i), ["--no-site"]));
        if (AWS) awsNext.push(await awsSync(built, "aws"));
        if (RCLONE) rcloneNext.push(await rcloneSync(built, "rclone"));
      }
      const n = med(nextDays);
      report({
        measure: "next-day deploy --no-site (date + 1, default guard), end to end",
        ours: fmt(n),
        peer: peers(
          "sync alone, after our build",
          AWS ? med(awsNext) : null,
          RCLONE ? med(rcloneNext) : null,
        ),
        ratio: AWS
          ? `${(med(awsNext).seconds / n.seconds).toFixed(2)}x faster than aws (which builds nothing)`
          : "",
        target: "succeeds; faster than aws s3 sync",
      });
      console.error(`  ${nextDays.at(-1)!.line}`);
    }
  }

  if (values.site && !skipped.has("site")) {
    console.error("with the site: first deploy…");
    const siteFirst = await deploy("site", day(0));
    const siteNoChange = med(await repeat(() => deploy("site", day(0))));
    const siteRenames: Timed[] = [];
    kind = "inPlace";
    for (let i = 0; i < runs; i++) {
      await rename();
      siteRenames.push(await deploy("site", day(0)));
    }
    if (renamed % 2 === 1) await rename();
    // A full build of the same content, for the build part's share.
    // Each from an empty output folder; the median of --runs.
    const fulls: Timed[] = [];
    for (let i = 0; i < runs; i++) {
      await rm(out("site-full"), { recursive: true, force: true });
      await rm(path.join(root, ".site-full.versions"), { recursive: true, force: true });
      fulls.push(
        await timed(process.execPath, [
          CLI,
          "build",
          "--content",
          content,
          "--out",
          out("site-full"),
          "--date",
          day(0),
          "--cache",
          path.join(root, "cache"),
        ]),
      );
    }
    const full = med(fulls);
    const s = med(siteRenames);
    const buildPart = median(
      siteRenames.map((t) =>
        Number(/in ([\d.]+) s(?: \(inputs unchanged\))?$/.exec(t.line)?.[1] ?? NaN),
      ),
    );
    report({ measure: "first deploy with the site", ours: fmt(siteFirst) });
    report({
      measure: "no-change deploy with the site, end to end",
      ours: fmt(siteNoChange),
      target: "<= 1.5 s",
    });
    report({
      measure: `one work renamed (${renames.inPlace.label}), deploy with the site, end to end`,
      ours: `${fmt(s)}; build part ${buildPart.toFixed(2)} s`,
      peer: `full build ${full.seconds.toFixed(2)} s (median of ${runs})`,
      ratio: `build part ${((buildPart / full.seconds) * 100).toFixed(1)} % of a full build`,
      target: "<= 12 s; build part <= 25 %",
    });
    console.error(`  ${siteRenames.at(-1)!.line}`);
  }
} finally {
  await writeFile(csv, original);
  await proxy.stop();
  await s3.stop();
}

async function repeat(fn: () => Promise<Timed>): Promise<Timed[]> {
  const results: Timed[] = [];
  for (let i = 0; i < runs; i++) results.push(await fn());
  return results;
}

console.log(
  `${values.works} works, ${values.domains} domains, s3rver on 127.0.0.1 behind a counting proxy, medians of ${runs}`,
);
console.log("| measure | catalogue | peers | ratio | target |\n|---|---|---|---|---|");
for (const row of rows)
  console.log(
    `| ${row.measure} | ${row.ours} | ${row.peer ?? ""} | ${row.ratio ?? ""} | ${row.target ?? ""} |`,
  );
await reportRows(rows);
await rm(root, { recursive: true, force: true });
