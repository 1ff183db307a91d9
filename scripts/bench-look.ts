/**
 * The site folder's target (docs/performance.md#a-librarys-own-look): a library's own header and
 * footer in Liquid cost little. One generated catalogue (20,000 works, 3 domains by default) built
 * with the built-in templates and with a site/ folder whose header and footer are Liquid
 * templates using the documented data (the logo, the navigation's pages and categories, the
 * language switcher, the downloads), in the same run, alternated (the order swapped every other
 * pair), each full site build in its own process (scripts/bench/build-child.ts with the compiled
 * program: run `npm run compile` first) from an empty output folder, images cached by a first
 * build. Target: ≤ 1.5x.
 *
 *   TMPDIR=/dev/shm npx tsx scripts/bench-look.ts [--works 20000] [--domains 3] [--runs 3] [--keep]
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { reportRows } from "./bench/rows.ts";
import { alternatedBuilds, buildChild as buildSite, cpu, fresh } from "./bench/site-builds.ts";
import { generateCatalogue } from "./generate.ts";

const DATE = "2026-11-20";

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "20000" },
    domains: { type: "string", default: "3" },
    runs: { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number) => Math.round(n * 100) / 100;
const log = (message: string) =>
  console.error(
    `[${new Date().toISOString().slice(11, 19)} load ${loadavg()[0]!.toFixed(1)}] ${message}`,
  );

/** A header and footer as a library writes them, from docs/site.md's data. */
const HEADER = `<header class="own-header">
  <a class="brand" href="{{ site.home }}">{% if site.logo %}<img src="{{ site.logo.src }}" alt="{{ site.logo.alt }}" width="{{ site.logo.width }}" height="{{ site.logo.height }}">{% else %}{{ site.name }}{% endif %}</a>
  <nav aria-label="{{ texts.pagesNav }}">
    <ul>
      {% for p in nav.pages %}<li><a href="{{ p.url }}"{% if p.current %} aria-current="page"{% endif %}>{{ p.label }}</a></li>{% endfor %}
      {% for c in nav.categories %}<li><a href="{{ c.url }}">{{ c.label }}</a></li>{% endfor %}
    </ul>
  </nav>
</header>
`;
const FOOTER = `<footer class="own-footer">
  <p>{{ site.name }}{% if site.home_url %} · <a href="{{ site.home_url }}">{{ texts.homeLink }}</a>{% endif %}</p>
  <p>Open Monday to Friday, 9:00 to 20:00.</p>
  <ul class="downloads">{% for d in downloads %}<li><a href="{{ d.url }}" download="{{ d.file }}">{{ d.label }}</a></li>{% endfor %}</ul>
</footer>
`;

const dir = await mkdtemp(path.join(tmpdir(), "catalogue-bench-look-"));
const builtIn = path.join(dir, "built-in", "content");
const own = path.join(dir, "own", "content");
log(`generating ${values.works} works × ${values.domains} domains in ${dir}`);
await generateCatalogue(builtIn, { works: Number(values.works), domains: Number(values.domains) });
await cp(builtIn, own, { recursive: true });
// site/ beside the content folder: the build finds it there.
await mkdir(path.join(dir, "own", "site", "_includes"), { recursive: true });
await writeFile(path.join(dir, "own", "site", "_includes", "header.liquid"), HEADER);
await writeFile(path.join(dir, "own", "site", "_includes", "footer.liquid"), FOOTER);

const buildChild = (content: string, out: string) => buildSite(dir, content, out, DATE);

log("warm-up build (fills the image cache)");
await buildChild(builtIn, path.join(dir, "warm-up"));
await fresh(path.join(dir, "warm-up"));

const pairs = await alternatedBuilds(dir, DATE, runs, { builtIn, own }, (which, child) =>
  log(
    `full site build, ${which === "own" ? "Liquid header and footer" : "built-in templates"}: ${child.seconds.toFixed(1)} s, CPU ${cpu(child).toFixed(1)} s, ${child.files} files`,
  ),
);

const ratio = median(pairs.map((p) => p.own.seconds / p.builtIn.seconds));
const cpuRatio = median(pairs.map((p) => cpu(p.own) / cpu(p.builtIn)));
const rows = [
  {
    measure: `full site build with a Liquid header and footer, against the built-in templates (${values.works} works × ${values.domains} domains, ${pairs[0]!.own.files} files)`,
    ours: `${round(median(pairs.map((p) => p.own.seconds)))} s against ${round(median(pairs.map((p) => p.builtIn.seconds)))} s (CPU of the build process ${round(cpuRatio)}x)`,
    ratio: `${round(ratio)}x`,
    target: "<= 1.5x",
  },
];
console.log(
  `${values.works} works × ${values.domains} domains, medians of ${runs}, load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log(JSON.stringify({ ratio, cpuRatio, pairs }));
console.log("| measure | catalogue | ratio | target |\n|---|---|---|---|");
for (const row of rows)
  console.log(`| ${row.measure} | ${row.ours} | ${row.ratio} | ${row.target} |`);
await reportRows(rows);
if (!values.keep) await rm(dir, { recursive: true, force: true });
else console.error(`kept ${dir}`);
