/**
 * Measures the HTML catalogue on a generated catalogue (20,000 works, 3 domains by default):
 * pages per second of a full site build, a rebuild with no change, and a rebuild after renaming
 * one title (target: at most 25% of a full build).
 *
 *   TMPDIR=/dev/shm npx tsx scripts/bench-site.ts [--works 20000] [--domains 3] [--runs 3] [--keep DIR]
 *
 * A first build into another folder warms the image cache and the modules; then the full build is
 * measured. Prints one JSON line.
 * - `pagesPerSecond` counts every HTML page over the whole site stage (images, planning, browse
 *   index, Eleventy); `eleventyPagesPerSecond` over the Eleventy runs alone (rendering and writing
 *   the pages, each domain in runs of at most 5,000 pages); `pagesPerCpuSecond` over the CPU
 *   time of the build process during the site stage.
 * - The no-change rebuild changes an image's time stamp, not its bytes (a rebuild whose inputs
 *   are untouched is skipped by the build's input fingerprint): it must render no page and write
 *   only the build's record of its inputs.
 * - `fullBuildCpuSeconds`, `renameCpuSeconds` and `renameCpuRatio`: CPU time of this process and
 *   its threads over each whole build: on a shared machine the wall
 *   times of the two builds meet different neighbours, their CPU times much less so.
 * - The rename rebuild (`--runs` times, default 3, the median reported) changes the title of the
 *   first work of audiovisuals.csv, then changes it back, and so on: the domains that
 *   do not list it are kept whole (their inputs key is unchanged), only the pages that show it
 *   are rendered (`renameRendered`), and of each domain listing it, the browse index files holding
 *   it are written again. `renameStages` splits its site stage (seconds).
 */
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "../src/pipeline/pipeline.ts";
import { readManifest } from "../src/output/tree.ts";
import { reportRows } from "./bench/rows.ts";
import { generateCatalogue } from "./generate.ts";

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "20000" },
    domains: { type: "string", default: "3" },
    runs: { type: "string", default: "3" },
    keep: { type: "string" },
  },
});
const works = Number(values.works);
const domains = Number(values.domains);
const dir = values.keep ?? (await mkdtemp(path.join(tmpdir(), "catalogue-bench-site-")));
const content = path.join(dir, "content");
const out = path.join(dir, "out");
await generateCatalogue(content, { works, domains });

/** One build, with the time (wall and CPU of this process) at which each stage started. */
async function timedBuild(outDir = out) {
  const stages: { name: string; at: number; cpu: number }[] = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const summary = await build({
    contentDir: content,
    outDir,
    date: "2026-11-20",
    cacheDir: path.join(dir, "cache"),
    site: true,
    reporter: {
      stage(name) {
        const { user, system } = process.cpuUsage();
        stages.push({ name, at: (performance.now() - started) / 1000, cpu: (user + system) / 1e6 });
      },
      warning() {},
    },
  });
  // Stages are found by the start of their name (some end with counts).
  const stage = (prefix: string) => {
    const found = stages.find((s) => s.name.startsWith(prefix));
    if (found === undefined)
      throw new Error(`no stage "${prefix}…" in ${stages.map((s) => s.name).join(", ")}`);
    return found;
  };
  const seconds = (from: string, to: string) => stage(to).at - stage(from).at;
  const { user, system } = process.cpuUsage(cpuBefore);
  // This process and its threads (the writers).
  const cpu = (user + system) / 1e6;
  const [, rendered, , eleventy] = /^rendered (\d+) of (\d+) HTML pages \(Eleventy ([\d.]+) s\)$/
    .exec(stage("rendered ").name)!
    .map(Number);
  return { summary, stage, seconds, cpu, rendered: rendered!, eleventy: eleventy! };
}

const round = (n: number) => Math.round(n * 100) / 100;
const siteStages = (b: Awaited<ReturnType<typeof timedBuild>>) => ({
  images: round(b.seconds("processing the site's images", "writing ")),
  // The domains in turn: planning, keying and rendering their pages while their API is written.
  domains: round(b.seconds("writing ", "rendered ")),
  eleventy: round(b.eleventy),
});

// A first build into another folder fills the image cache and loads the program's modules, so
// that the full build below is measured as the target says (images already cached) and in the
// same conditions as the rebuilds after it.
await timedBuild(path.join(dir, "warm-up"));
await rm(path.join(dir, "warm-up"), { recursive: true, force: true });
await rm(path.join(dir, ".warm-up.versions"), { recursive: true, force: true });
const full = await timedBuild();
const pages = [...(await readManifest(out)).keys()].filter((f) => f.endsWith(".html")).length;
const siteSeconds = full.seconds("processing the site's images", "switching to the new output");
const eleventySeconds = full.eleventy;
// On a shared machine wall time depends on the neighbours; CPU time of this process does not.
const siteCpuSeconds =
  full.stage("switching to the new output").cpu - full.stage("processing the site's images").cpu;

const cover = path.join(content, "covers/cover-0.png");
const now = new Date();
await utimes(cover, now, now);
const again = await timedBuild();

const csv = path.join(content, "audiovisuals.csv");
const original = await readFile(csv, "utf8");
const renamed = original.replace(/\n1,[^,\n]+,/, "\n1,Título renombrado,");
if (renamed === original)
  throw new Error("no work with id 1 on the first data row of audiovisuals.csv");
// Renamed, then back, and so on: every run moves the work between the same two places in name
// order, so every run renders and rewrites the same pages. The median run is reported.
const renames: Awaited<ReturnType<typeof timedBuild>>[] = [];
for (let i = 0; i < Number(values.runs); i++) {
  await writeFile(csv, i % 2 === 0 ? renamed : original);
  renames.push(await timedBuild());
}
await writeFile(csv, original);
const rename = [...renames].sort((a, b) => a.summary.seconds - b.summary.seconds)[
  Math.floor(renames.length / 2)
]!;

console.log(
  JSON.stringify({
    works,
    domains,
    pages,
    files: full.summary.files,
    fullBuildSeconds: round(full.summary.seconds),
    siteSeconds: round(siteSeconds),
    pagesPerSecond: Math.round(pages / siteSeconds),
    siteCpuSeconds: round(siteCpuSeconds),
    pagesPerCpuSecond: Math.round(pages / siteCpuSeconds),
    eleventySeconds: round(eleventySeconds),
    eleventyPagesPerSecond: Math.round(pages / eleventySeconds),
    fullStages: siteStages(full),
    rebuildSeconds: round(again.summary.seconds),
    rebuildRendered: again.rendered,
    rebuildWritten: again.summary.written,
    rebuildRemoved: again.summary.removed,
    fullBuildCpuSeconds: round(full.cpu),
    renameSeconds: round(rename.summary.seconds),
    renameRatio: round(rename.summary.seconds / full.summary.seconds),
    renameCpuSeconds: round(rename.cpu),
    renameCpuRatio: round(rename.cpu / full.cpu),
    renameRendered: rename.rendered,
    renameWritten: rename.summary.written,
    renameStages: siteStages(rename),
  }),
);
await reportRows([
  {
    measure: `full build with the site, images cached (${full.summary.files} files, ${pages} HTML pages)`,
    ours: `${round(full.summary.seconds)} s; site stage ${Math.round(pages / siteSeconds)} pages/s (Eleventy alone ${Math.round(pages / eleventySeconds)} pages/s)`,
    target: "at least 1,000 pages/s",
  },
  {
    measure: "full rebuild with no page changed (an image touched)",
    ours: `${round(again.summary.seconds)} s, ${again.rendered} pages rendered, ${again.summary.written} file(s) written`,
    ratio: `${Math.round((again.summary.seconds / full.summary.seconds) * 100)}% of a build`,
  },
  {
    measure: "full rebuild after renaming one title",
    ours: `${round(rename.summary.seconds)} s, ${rename.rendered} pages rendered, ${rename.summary.written} files written`,
    ratio: `${Math.round((rename.summary.seconds / full.summary.seconds) * 100)}% of a build (CPU time of the build process: ${round(rename.cpu)} s, ${Math.round((rename.cpu / full.cpu) * 100)}% of the build's ${round(full.cpu)} s)`,
    target: "<= 25%",
  },
]);
if (values.keep === undefined) await rm(dir, { recursive: true, force: true });
