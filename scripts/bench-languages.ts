/**
 * The targets of sites in several languages (docs/performance.md#sites-in-several-languages):
 * what they cost. One generated catalogue (20,000 works, 3 domains by default), built as it is
 * (every domain in its locale alone) and with every domain also offered in two other languages
 * of the seven (the `languages` column of domains.csv), in the same run, alternated, the medians
 * reported:
 * - the full site build in 3 languages against the same in one (target ≤ 2.6x), and the peak
 *   memory of the 3-language build (target ≤ 1 GB): each build in its own process
 *   (scripts/bench/build-child.ts with the compiled program, so run `npm run compile` first),
 *   from an empty output folder, images cached by a first build;
 * - a one-work rename rebuilt in the 3-language site, as a share of its full build (≤ 25 %);
 * - the same rename deployed end to end (`catalogue deploy`, start-up included, to s3rver on
 *   127.0.0.1) after a first full deploy (target ≤ 12 s); the deploys build into the folder the
 *   rebuilds used, so the first one publishes the whole site and builds only the last rename.
 *
 *   TMPDIR=/dev/shm npx tsx scripts/bench-languages.ts [--works 20000] [--domains 3] [--runs 3] [--skip deploy] [--keep]
 *
 * The work renamed is the first of audiovisuals.csv; its title gets a suffix that keeps its place
 * in name order, then loses it, and so on (every run rewrites the same pages).
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { startS3rver } from "../test/support/s3.ts";
import { reportRows } from "./bench/rows.ts";
import {
  alternatedBuilds,
  buildChild as buildSite,
  cpu,
  fresh,
  type Child,
} from "./bench/site-builds.ts";
import { generateCatalogue } from "./generate.ts";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "bin/catalogue.js");
const DATE = "2026-11-20";

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "20000" },
    domains: { type: "string", default: "3" },
    runs: { type: "string", default: "3" },
    skip: { type: "string", default: "" },
    keep: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const skipped = new Set(values.skip.split(",").filter(Boolean));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number) => Math.round(n * 100) / 100;
const log = (message: string) =>
  console.error(
    `[${new Date().toISOString().slice(11, 19)} load ${loadavg()[0]!.toFixed(1)}] ${message}`,
  );

const dir = await mkdtemp(path.join(tmpdir(), "catalogue-bench-languages-"));
const one = path.join(dir, "content-1");
const three = path.join(dir, "content-3");
log(`generating ${values.works} works × ${values.domains} domains in ${dir}`);
await generateCatalogue(one, { works: Number(values.works), domains: Number(values.domains) });
await cp(one, three, { recursive: true });

/** Each domain also offered in the next two of the seven languages after its locale. */
const SEVEN = ["es", "en", "ca", "gl", "eu", "va", "fr"];
const domainsCsv = await readFile(path.join(one, "domains.csv"), "utf8");
const [header, ...lines] = domainsCsv.trimEnd().split("\n");
const localeColumn = header!.split(",").indexOf("locale");
await writeFile(
  path.join(three, "domains.csv"),
  [
    `${header},languages`,
    ...lines.map((line) => {
      const at = SEVEN.indexOf(line.split(",")[localeColumn]!);
      return `${line},${SEVEN[(at + 1) % 7]} ${SEVEN[(at + 2) % 7]}`;
    }),
  ].join("\n") + "\n",
);

const buildChild = (content: string, out: string) => buildSite(dir, content, out, DATE);

log("warm-up build (fills the image cache)");
await buildChild(one, path.join(dir, "warm-up"));
await fresh(path.join(dir, "warm-up"));

const fulls = await alternatedBuilds(dir, DATE, runs, { one, three }, (which, child) =>
  log(
    `full build, ${which === "one" ? "1 language" : "3 languages"}: ${child.seconds.toFixed(1)} s, ${child.files} files, max RSS ${Math.round(child.maxRssMB)} MB`,
  ),
);
const full1 = median(fulls.map((p) => p.one.seconds));
const full3 = median(fulls.map((p) => p.three.seconds));
const ratio = median(fulls.map((p) => p.three.seconds / p.one.seconds));
const cpuRatio = median(fulls.map((p) => cpu(p.three) / cpu(p.one)));
const rss3 = Math.max(...fulls.map((p) => p.three.maxRssMB));
const files = { one: fulls[0]!.one.files, three: fulls[0]!.three.files };
// The tmpfs holds several copies of the site at 20,000 works (the builds, s3rver's): one fewer.
await fresh(path.join(dir, "out-one"));

const csv = path.join(three, "audiovisuals.csv");
const original = await readFile(csv, "utf8");
const renamed = original.replace(/\n1,([^,\n]+),/, "\n1,$1 (restaurada),");
if (renamed === original)
  throw new Error("no work with id 1 on the first data row of audiovisuals.csv");
let renames = 0;
const rename = () => writeFile(csv, ++renames % 2 === 1 ? renamed : original);

const rebuilds: Child[] = [];
for (let i = 0; i < runs; i++) {
  await rename();
  rebuilds.push(await buildChild(three, path.join(dir, "out-three")));
  log(
    `rename rebuild, 3 languages: ${rebuilds.at(-1)!.seconds.toFixed(1)} s, ${rebuilds.at(-1)!.written} files written`,
  );
}
const rebuild = median(rebuilds.map((c) => c.seconds));
const rebuildCpu = median(rebuilds.map(cpu));
const full3Cpu = median(fulls.map((p) => cpu(p.three)));

const rows = [
  {
    measure: `full site build, every domain in 3 languages, against 1 (${values.works} works × ${values.domains} domains; ${files.three} against ${files.one} files)`,
    ours: `${round(full3)} s against ${round(full1)} s (CPU of the build process ${round(cpuRatio)}x)`,
    ratio: `${round(ratio)}x`,
    target: "<= 2.6x",
  },
  {
    measure: "peak memory of the 3-language full build",
    ours: `${Math.round(rss3)} MB (build process max RSS)`,
    target: "<= 1 GB",
  },
  {
    measure: "one-work rename rebuilt, site in 3 languages",
    ours: `${round(rebuild)} s, ${median(rebuilds.map((c) => c.written))} files written`,
    ratio: `${Math.round((rebuild / full3) * 100)} % of the full build (CPU: ${Math.round((rebuildCpu / full3Cpu) * 100)} %)`,
    target: "<= 25 %",
  },
];

if (!skipped.has("deploy")) {
  const s3 = await startS3rver(["bench"]);
  const env = { ...process.env, ...s3.env, AWS_EC2_METADATA_DISABLED: "true" };
  const deploy = async () => {
    const started = performance.now();
    const { stderr } = await exec(
      process.execPath,
      [
        CLI,
        "deploy",
        "--content",
        three,
        "--out",
        path.join(dir, "out-three"),
        "--date",
        DATE,
        "--cache",
        path.join(dir, ".cache/catalogue"),
        "--to",
        "s3://bench/site",
        "--endpoint",
        s3.endpoint,
      ],
      { env, cwd: dir, maxBuffer: 1 << 28 },
    );
    return {
      seconds: (performance.now() - started) / 1000,
      line: stderr.trim().split("\n").at(-1) ?? "",
    };
  };
  try {
    log("first deploy, 3 languages");
    const first = await deploy();
    log(`  ${first.seconds.toFixed(1)} s: ${first.line}`);
    const deploys: Awaited<ReturnType<typeof deploy>>[] = [];
    for (let i = 0; i < runs; i++) {
      await rename();
      deploys.push(await deploy());
      log(`rename deployed: ${deploys.at(-1)!.seconds.toFixed(1)} s: ${deploys.at(-1)!.line}`);
    }
    rows.push(
      {
        measure: "first deploy, site in 3 languages, to s3rver on 127.0.0.1",
        ours: `${round(first.seconds)} s`,
        ratio: "",
        target: "",
      },
      {
        measure: "one-work rename deployed end to end (build and publish), site in 3 languages",
        ours: `${round(median(deploys.map((d) => d.seconds)))} s`,
        ratio: "",
        target: "<= 12 s",
      },
    );
  } finally {
    await s3.stop();
  }
}
await writeFile(csv, original);

console.log(
  `${values.works} works × ${values.domains} domains, medians of ${runs}, load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log(
  JSON.stringify({
    full1,
    full3,
    ratio,
    cpuRatio,
    rss3,
    rebuild,
    rebuildShare: rebuild / full3,
    runs: fulls,
    rebuilds,
  }),
);
console.log("| measure | catalogue | ratio | target |\n|---|---|---|---|");
for (const row of rows)
  console.log(`| ${row.measure} | ${row.ours} | ${row.ratio ?? ""} | ${row.target ?? ""} |`);
await reportRows(rows);
if (!values.keep) await rm(dir, { recursive: true, force: true });
else console.error(`kept ${dir}`);
