/**
 * Measures the HTML catalogue: pages per second of a full site build and the time of a rebuild
 * with no change, on a generated catalogue (20,000 works, 3 domains by default).
 *
 *   npx tsx scripts/bench-site.ts [--works 20000] [--domains 3] [--keep DIR]
 *
 * Prints one JSON line. The rebuild renders everything again (an image's time stamp is changed,
 * not its bytes) and should rewrite no page: `rebuildWritten` counts only the build's own record
 * of its inputs. `pagesPerSecond` counts every HTML page over the whole site stage
 * (images, Eleventy, search index); `eleventyPagesPerSecond` over the Eleventy run alone (which
 * includes writing the pages and feeding the search index); `pagesPerCpuSecond` over the CPU
 * time of the build process during the site stage.
 */
import { mkdtemp, readFile, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "../src/build.ts";
import { MANIFEST_PATH } from "../src/output/tree.ts";
import { generateCatalogue } from "./generate.ts";

const { values } = parseArgs({
  options: { works: { type: "string", default: "20000" }, domains: { type: "string", default: "3" }, keep: { type: "string" } },
});
const works = Number(values.works);
const domains = Number(values.domains);
const dir = values.keep ?? (await mkdtemp(path.join(tmpdir(), "catalogue-bench-site-")));
const content = path.join(dir, "content");
const out = path.join(dir, "out");
await generateCatalogue(content, { works, domains });

/** One build, with the time at which each stage started. */
async function timedBuild() {
  const stages = new Map<string, number>();
  const cpu = new Map<string, number>();
  const started = performance.now();
  const summary = await build({
    contentDir: content,
    outDir: out,
    date: "2026-11-20",
    cacheDir: path.join(dir, "cache"),
    site: true,
    reporter: {
      stage(name) {
        stages.set(name, (performance.now() - started) / 1000);
        const { user, system } = process.cpuUsage();
        cpu.set(name, (user + system) / 1e6);
      },
      warning() {},
    },
  });
  return { summary, at: (name: string) => stages.get(name)!, cpuAt: (name: string) => cpu.get(name)! };
}

const full = await timedBuild();
const manifest = JSON.parse(await readFile(path.join(out, MANIFEST_PATH), "utf8")) as { files: Record<string, unknown> };
const pages = Object.keys(manifest.files).filter((f) => f.endsWith(".html")).length;
const siteSeconds = full.at("switching to the new output") - full.at("processing the site's images");
const eleventySeconds = full.at("writing the search index") - full.at("rendering the HTML catalogue");
// On a shared machine wall time depends on the neighbours; CPU time of this process does not
// (Pagefind indexes in its own process and is not counted here).
const siteCpuSeconds = full.cpuAt("switching to the new output") - full.cpuAt("processing the site's images");
// A rebuild whose inputs are untouched is skipped by the build's input fingerprint; touching an
// image changes the fingerprint but no byte, so the whole site is rendered again and compared.
const cover = path.join(content, "covers/cover-0.png");
const now = new Date();
await utimes(cover, now, now);
const again = await timedBuild();

const round = (n: number) => Math.round(n * 100) / 100;
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
    rebuildSeconds: round(again.summary.seconds),
    rebuildWritten: again.summary.written,
    rebuildRemoved: again.summary.removed,
  }),
);
if (values.keep === undefined) await rm(dir, { recursive: true, force: true });
