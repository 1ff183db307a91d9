/**
 * `npm run bench`: the honest record of where catalogue stands. It generates a seeded catalogue
 * (20,000 works, three domains, biographies of ~400 characters), works in a tmpfs (/dev/shm)
 * when there is one (the disks here are noisy), and prints a table of medians.
 *
 *   npm run bench -- [--works N] [--domains N] [--runs N] [--json FILE] [--keep] [--sections LIST]
 *
 * Sections (default command,api,scale,site,exports,load,dev): command (this file: the compiled
 * command as a user starts it, whole processes: --help against `node -e 0`, a build --no-site
 * against cp -a, a build with nothing to do), api (this file: the API build against cp -a
 * and a plain Eleventy pagination build, rebuilds), scale (API builds at 3, 30 and 100 domains
 * and of 20,000 works × 30 domains, site builds of 20,000 × 3 and 100,000 × 1: time per domain
 * and peak memory; about a quarter of an hour), site (scripts/bench-site.ts), languages
 * (scripts/bench-languages.ts: the site with every domain in 3 languages against 1, a rename
 * rebuilt and deployed to s3rver; not in the default list, like publish), look
 * (scripts/bench-look.ts: the site with a Liquid header and footer against the built-in ones;
 * not in the default list), exports (scripts/bench-exports.ts), load
 * (scripts/bench-load.ts: serve, nginx, the Worker in workerd, json-server), publish (scripts/bench-publish.ts; slow:
 * the first upload of ~70,000 files to s3rver takes minutes), lighthouse (scripts/bench-lighthouse.ts:
 * Lighthouse's scores of the sample site's pages, performance included; a few minutes), dev
 * (scripts/bench-dev.ts: `catalogue dev`, a title edited in the sample catalogue until the open
 * page in Chromium shows it), browse (scripts/bench-browse.ts: the filter panel's bytes and
 * click-to-cards times on a 20,000-work domain, online and from file://; not in the default list),
 * marc (scripts/bench-marc.ts: an API-only build with against without the MARC files, with the
 * compiled program: `npm run compile` first; not in the default list).
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import type { BenchRow } from "./bench/rows.ts";
import { generateCatalogue } from "./generate.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "20000" },
    domains: { type: "string", default: "3" },
    runs: { type: "string", default: "3" },
    json: { type: "string" },
    keep: { type: "boolean", default: false },
    sections: { type: "string", default: "command,api,scale,site,exports,load,dev" },
  },
});
const sections = new Set(values.sections.split(","));
const runs = Number(values.runs);
const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
// BENCH_PREFIX names the work folder (sessions sharing a tmpfs each keep to their own names).
const work = await mkdtemp(path.join(base, process.env.BENCH_PREFIX ?? "catalogue-bench-"));
// nginx's workers (user nobody when started as root) must reach the builds inside it.
await chmod(work, 0o755);
const rows: BenchRow[] = [];
const rowsFile = path.join(work, "rows.jsonl");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface ChildResult {
  seconds: number;
  maxRssMB: number;
  files: number;
  written: number;
  unchanged: number;
  removed: number;
}

async function buildOnce(content: string, out: string, extra: string[] = []): Promise<ChildResult> {
  const { stdout } = await run(
    TSX,
    [path.join(ROOT, "scripts/bench/build-child.ts"), content, out, "2026-11-20", ...extra],
    { maxBuffer: 1 << 26 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ChildResult;
}

async function timed(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  await run(command, args);
  return (performance.now() - started) / 1000;
}

async function fresh(out: string) {
  await rm(out, { recursive: true, force: true });
  await rm(path.join(path.dirname(out), `.${path.basename(out)}.versions`), {
    recursive: true,
    force: true,
  });
}

try {
  console.error(
    `benchmark in ${work} (${base === "/dev/shm" ? "tmpfs" : "disk: no /dev/shm here"}), ${values.works} works, ${values.domains} domains, median of ${runs}`,
  );
  const content = path.join(work, "content");
  await generateCatalogue(content, {
    works: Number(values.works),
    domains: Number(values.domains),
  });
  const out = path.join(work, "out");
  if (sections.has("command")) await commandSection(content, path.join(work, "command-out"));
  if (sections.has("api")) await apiSection(content, out);
  if (sections.has("scale")) await scaleSection();

  // Sections measured by the other benchmark scripts, when present.
  for (const [script, label] of [
    ["scripts/bench-site.ts", "site"],
    ["scripts/bench-languages.ts", "languages"],
    ["scripts/bench-look.ts", "look"],
    ["scripts/bench-exports.ts", "exports"],
    ["scripts/bench-load.ts", "load"],
    ["scripts/bench-publish.ts", "publish"],
    ["scripts/bench-lighthouse.ts", "lighthouse"],
    ["scripts/bench-dev.ts", "dev"],
    ["scripts/bench-browse.ts", "browse"],
    ["scripts/bench-marc.ts", "marc"],
  ] as const) {
    if (!sections.has(label)) continue;
    console.error(`running ${script}…`);
    await new Promise<void>((resolve, reject) => {
      const args =
        label === "site" || label === "lighthouse" || label === "languages" || label === "look"
          ? ["--runs", String(runs)]
          : label === "dev"
            ? ["--edits", String(Math.max(runs, 5))]
            : label === "browse"
              ? ["--runs", String(runs)]
              : label === "marc"
                ? ["--runs", String(runs), "--works", values.works, "--domains", values.domains]
                : [];
      const child = spawn(TSX, [path.join(ROOT, script), ...args], {
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, TMPDIR: work, BENCH_ROWS_FILE: rowsFile },
      });
      // A failed section is reported, and the others still run and print their figures.
      child.on("exit", (code) => {
        if (code !== 0)
          rows.push({
            measure: `${label} benchmark`,
            ours: `FAILED (exit ${code}): see its output above`,
          });
        resolve();
      });
      child.on("error", reject);
    });
  }

  // The rows the other scripts handed over (scripts/bench/rows.ts).
  const handed = await readFile(rowsFile, "utf8").catch(() => "");
  for (const line of handed.split("\n").filter(Boolean))
    rows.push(JSON.parse(line) as (typeof rows)[number]);

  const table = [
    "| measure | catalogue | peer | ratio | target |",
    "|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.measure} | ${r.ours} | ${r.peer ?? ""} | ${r.ratio ?? ""} | ${r.target ?? ""} |`,
    ),
  ].join("\n");
  console.log(table);
  if (values.json) {
    await mkdir(path.dirname(path.resolve(values.json)), { recursive: true });
    await writeFile(
      values.json,
      JSON.stringify(
        { works: Number(values.works), domains: Number(values.domains), runs, storage: base, rows },
        null,
        2,
      ) + "\n",
    );
  }
} finally {
  if (!values.keep) await rm(work, { recursive: true, force: true });
}

/** The compiled command as a user runs it: whole processes, start-up included (medians of `runs`, at least 5 for the short ones). */
async function commandSection(content: string, out: string) {
  await run(process.execPath, [path.join(ROOT, "scripts/compile.mjs")]);
  const cli = (args: string[]) =>
    timed(process.execPath, [path.join(ROOT, "bin/catalogue.js"), ...args]);
  const short = Math.max(runs, 5);
  const help: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < short; i++) {
    help.push(await cli(["--help"]));
    bare.push(await timed(process.execPath, ["-e", "0"]));
  }
  rows.push({
    measure: "catalogue --help (whole process)",
    ours: `${(median(help) * 1000).toFixed(0)} ms`,
    peer: `node -e 0 ${(median(bare) * 1000).toFixed(0)} ms`,
    ratio: `${(median(help) / median(bare)).toFixed(2)}x`,
    target: "<= 150 ms",
  });

  const builds: number[] = [];
  const copies: number[] = [];
  const build = [
    "build",
    "--no-site",
    "--content",
    content,
    "--out",
    out,
    "--date",
    "2026-11-20",
    "--cache",
    path.join(work, "command-cache"),
  ];
  for (let i = 0; i < runs; i++) {
    await fresh(out);
    builds.push(await cli(build));
    await rm(path.join(work, "copy"), { recursive: true, force: true });
    copies.push(await timed("cp", ["-a", `${out}/.`, path.join(work, "copy")]));
  }
  await rm(path.join(work, "copy"), { recursive: true, force: true });
  rows.push({
    measure: "catalogue build --no-site (whole process)",
    ours: `${median(builds).toFixed(2)} s`,
    peer: `cp -a ${median(copies).toFixed(2)} s`,
    ratio: `${(median(builds) / median(copies)).toFixed(2)}x`,
    target: "<= 2x",
  });
  const noop: number[] = [];
  for (let i = 0; i < short; i++) noop.push(await cli(build));
  rows.push({
    measure: "catalogue build, nothing changed (whole process)",
    ours: `${(median(noop) * 1000).toFixed(0)} ms`,
    peer: `node -e 0 ${(median(bare) * 1000).toFixed(0)} ms`,
    target: "<= 300 ms",
  });
  await fresh(out);
}

async function apiSection(content: string, out: string) {
  // API build (--no-site) against cp -a of the tree it wrote, measured in the same run.
  const builds: ChildResult[] = [];
  const copies: number[] = [];
  for (let i = 0; i < runs; i++) {
    await fresh(out);
    builds.push(await buildOnce(content, out));
    await rm(path.join(work, "copy"), { recursive: true, force: true });
    copies.push(await timed("cp", ["-a", `${out}/.`, path.join(work, "copy")]));
  }
  // The copy goes at once: tens of thousands of files beside the peer's slowed Eleventy down.
  await rm(path.join(work, "copy"), { recursive: true, force: true });
  const api = median(builds.map((b) => b.seconds));
  const copy = median(copies);
  rows.push({
    measure: `API build --no-site (${builds[0]!.files} files)`,
    ours: `${api.toFixed(2)} s`,
    peer: `cp -a ${copy.toFixed(2)} s`,
    ratio: `${(api / copy).toFixed(2)}x`,
    target: "within 2x",
  });
  // The peer: every listing page and retrieve document, with a plain Eleventy pagination
  // template (ours also writes the exports, the OpenAPI descriptions and the media in its time).
  const peers: { seconds: number; pages: number; maxRssMB: number }[] = [];
  for (let i = 0; i < runs; i++) {
    // A folder of its own, as an Eleventy project has (its input folder is made beside its output).
    const peerDir = path.join(work, "eleventy-peer");
    await rm(peerDir, { recursive: true, force: true });
    await mkdir(peerDir);
    const { stdout } = await run(
      TSX,
      [
        path.join(ROOT, "scripts/bench/eleventy-peer.ts"),
        content,
        path.join(peerDir, "out"),
        "2026-11-20",
      ],
      { maxBuffer: 1 << 26 },
    );
    peers.push(JSON.parse(stdout.trim().split("\n").at(-1)!) as (typeof peers)[number]);
    await rm(peerDir, { recursive: true, force: true });
  }
  const peer = median(peers.map((p) => p.seconds));
  const ourMemory = median(builds.map((b) => b.maxRssMB));
  const peerMemory = median(peers.map((p) => p.maxRssMB));
  rows.push({
    measure: `the same JSON pages with a plain Eleventy pagination template (${peers[0]!.pages} pages)`,
    ours: `${api.toFixed(2)} s`,
    peer: `${peer.toFixed(2)} s`,
    ratio: `${(peer / api).toFixed(2)}x faster`,
    target: "at least 5x faster",
  });
  rows.push({
    measure: "API build peak memory",
    ours: `${ourMemory.toFixed(0)} MB`,
    peer: `Eleventy ${peerMemory.toFixed(0)} MB`,
    ratio: `${(ourMemory / peerMemory).toFixed(2)} of it`,
    target: "a fifth of its memory",
  });

  const again: ChildResult[] = [];
  for (let i = 0; i < runs; i++) again.push(await buildOnce(content, out));
  const noChange = median(again.map((b) => b.seconds));
  rows.push({
    measure: "API rebuild, no change",
    ours: `${noChange.toFixed(2)} s, ${again[0]!.written} files written`,
    ratio: `${((noChange / api) * 100).toFixed(0)}% of a build`,
    target: "<= 10%, 0 written",
  });

  const csvPath = path.join(content, "audiovisuals.csv");
  const original = await readFile(csvPath, "utf8");
  // Each rename moves the work between the same two places in name order (renamed, then back),
  // so that every run rewrites the same pages.
  const renamed = original.replace(/\n1,[^,]+,/, "\n1,Título renombrado,");
  const renames: ChildResult[] = [];
  for (let i = 0; i < runs; i++) {
    await writeFile(csvPath, i % 2 === 0 ? renamed : original);
    renames.push(await buildOnce(content, out));
  }
  await writeFile(csvPath, original);
  const rename = median(renames.map((b) => b.seconds));
  rows.push({
    measure: "API rebuild after renaming one title",
    ours: `${rename.toFixed(2)} s, ${renames[0]!.written} files written`,
    ratio: `${((rename / api) * 100).toFixed(0)}% of a build`,
    target: "<= 25%",
  });
}

/**
 * Memory and time against the number of domains: API builds of 5,000 works at 3, 30
 * and 100 domains (medians of `runs`: seconds per domain and per 1,000 files should stay flat)
 * and of 20,000 works × 30 domains, the site build of 20,000 works × 3 domains, and 100,000 works
 * in one domain with and without the site. The compiled program builds, as the installed
 * command does; peak RSS is the build's process (its threads included). Each catalogue and output is deleted as soon as it is measured (20,000 × 30 writes
 * more than /dev/shm holds beside the next).
 */
async function scaleSection() {
  await run(process.execPath, [path.join(ROOT, "scripts/compile.mjs")]);
  const compiled = { ...process.env, BENCH_COMPILED: "1" };
  const measure = async (works: number, domains: number, site: boolean, times: number) => {
    const content = path.join(work, `content-${works}x${domains}`);
    await generateCatalogue(content, { works, domains });
    const out = path.join(work, `out-${works}x${domains}`);
    const results: ChildResult[] = [];
    for (let i = 0; i < times; i++) {
      await fresh(out);
      const { stdout } = await run(
        TSX,
        [
          path.join(ROOT, "scripts/bench/build-child.ts"),
          content,
          out,
          "2026-11-20",
          ...(site ? ["--site"] : []),
        ],
        { maxBuffer: 1 << 26, env: compiled },
      );
      results.push(JSON.parse(stdout.trim().split("\n").at(-1)!) as (typeof results)[number]);
      console.error(
        `scale: ${works} × ${domains}${site ? " with the site" : ""}: ${results.at(-1)!.seconds.toFixed(1)} s, ${results.at(-1)!.maxRssMB.toFixed(0)} MB`,
      );
    }
    await fresh(out);
    await rm(content, { recursive: true, force: true });
    const seconds = median(results.map((r) => r.seconds));
    const files = results[0]!.files;
    const peak = Math.max(...results.map((r) => r.maxRssMB));
    return {
      seconds,
      files,
      peak,
      perDomain: seconds / domains,
      perThousand: (seconds / files) * 1000,
    };
  };
  const row = (label: string, r: Awaited<ReturnType<typeof measure>>, target: string) =>
    rows.push({
      measure: `${label} (${r.files.toLocaleString("en")} files)`,
      ours: `${r.seconds.toFixed(1)} s, peak ${r.peak.toFixed(0)} MB`,
      peer: `${r.perDomain.toFixed(2)} s per domain, ${r.perThousand.toFixed(3)} s per 1,000 files`,
      target,
    });
  const series: Awaited<ReturnType<typeof measure>>[] = [];
  for (const domains of [3, 30, 100]) {
    const r = await measure(5000, domains, false, runs);
    series.push(r);
    const ratio = r.perThousand / series[0]!.perThousand;
    row(
      `5,000 works × ${domains} domains, API build`,
      r,
      domains === 3
        ? "peak <= 600 MB"
        : `peak <= 600 MB; s per 1,000 files ${ratio.toFixed(2)}x of 3 domains (within 1.2x)`,
    );
  }
  row(
    "20,000 works × 30 domains, API build",
    await measure(20_000, 30, false, 1),
    "peak <= 600 MB",
  );
  row(
    "20,000 works × 3 domains, with the site",
    await measure(20_000, 3, true, 1),
    "peak <= 700 MB",
  );
  row(
    "100,000 works, one domain, API build",
    await measure(100_000, 1, false, 1),
    "peak under 1 GB",
  );
  row(
    "100,000 works, one domain, with the site",
    await measure(100_000, 1, true, 1),
    "peak <= 1.5 GB",
  );
}
