/**
 * What the MARC files cost.
 *
 * 1. The records alone: time to turn many works (default 20,000) into MARC records and write them
 *    as ISO 2709, as MARCXML, and as both in one pass (each record made once), to files in TMPDIR
 *    chunk by chunk as a build would. The peer measured in the same run is JSON.stringify of the
 *    same works (the cost of the plainest serialisation of the same data), so the figures read as
 *    ratios on a shared machine. Medians of --runs runs.
 * 2. In a build (skipped with --no-builds): an API-only build (`build --no-site`) of a generated
 *    catalogue (--works × --domains, default 20,000 × 3) with the MARC files, against the same
 *    build without them (the peer, the build option `marcFiles: false`), each in its own process
 *    from an empty output (its peak RSS is the build's alone), the pairs alternated; medians of
 *    --runs pairs. Then a one-work rename rebuilt with the MARC files: which of them are written
 *    again (those that hold the work, and no other).
 *
 *   npm run compile && TMPDIR=/dev/shm npx tsx scripts/bench-marc.ts [--works 20000] [--domains 3] [--runs 5] [--no-builds] [--json]
 *
 * The builds run the compiled program (lib/): compile it first.
 */
import { execFile } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { writeMarcFiles } from "../src/marc/record-files.ts";
import { iso2709Chunks } from "../src/marc/iso2709.ts";
import { marcMapper, marcRecords } from "../src/marc/map.ts";
import { marcxmlChunks } from "../src/marc/marcxml.ts";
import { readIso2709 } from "../test/marc/iso2709-reader.ts";
import { DOMAIN, generatedWorks } from "../test/marc/works.ts";
import { reportRows, type BenchRow } from "./bench/rows.ts";
import { generateCatalogue } from "./generate.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    works: { type: "string", default: "20000" },
    domains: { type: "string", default: "3" },
    runs: { type: "string", default: "5" },
    "no-builds": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    child: { type: "boolean", default: false },
  },
});

const DATE = "2026-11-20";
if (values.child) await buildChild();

const count = Number(values.works);
const runs = Number(values.runs);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1) {
  console.error(
    "usage: tsx scripts/bench-marc.ts [--works N] [--domains N] [--runs N] [--no-builds] [--json]",
  );
  process.exit(1);
}

const works = generatedWorks(count);
const dir = mkdtempSync(path.join(tmpdir(), "bench-marc-"));

/** Writes `chunks` to a file; gives the bytes written. */
function write(name: string, chunks: Iterable<Uint8Array | string>): number {
  const fd = openSync(path.join(dir, name), "w");
  let bytes = 0;
  try {
    for (const chunk of chunks)
      bytes += typeof chunk === "string" ? writeSync(fd, chunk) : writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Wall and CPU milliseconds of `task`, and what it returns. */
function timed<T>(task: () => T): { wall: number; cpu: number; result: T } {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const result = task();
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000, result };
}

const cases = {
  "map only": () => {
    const map = marcMapper(DOMAIN);
    let fields = 0;
    for (const work of works) fields += map(work).fields.length;
    return fields;
  },
  "map + ISO 2709": () => write("records.mrc", iso2709Chunks(marcRecords(works, DOMAIN))),
  "map + MARCXML": () => write("records.xml", marcxmlChunks(marcRecords(works, DOMAIN))),
  "map + both, one pass": () => {
    const iso = openSync(path.join(dir, "both.mrc"), "w");
    const xml = openSync(path.join(dir, "both.xml"), "w");
    let bytes = 0;
    try {
      writeMarcFiles(marcRecords(works, DOMAIN), {
        iso2709: (chunk) => (bytes += writeSync(iso, chunk)),
        marcxml: (chunk) => (bytes += writeSync(xml, chunk)),
      });
    } finally {
      closeSync(iso);
      closeSync(xml);
    }
    return bytes;
  },
  "peer: JSON.stringify": () => write("works.json", [JSON.stringify(works)]),
};

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const results: Record<string, { wall: number; cpu: number; bytes: number }> = {};
const samples: Record<string, { wall: number[]; cpu: number[]; bytes: number }> = {};
try {
  for (let run = 0; run < runs + 1; run++) {
    for (const [name, task] of Object.entries(cases)) {
      const { wall, cpu, result } = timed(task);
      // The first round warms the JIT and the Intl data up: not counted.
      if (run === 0) continue;
      const sample = (samples[name] ??= { wall: [], cpu: [], bytes: result });
      sample.wall.push(wall);
      sample.cpu.push(cpu);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const [name, sample] of Object.entries(samples))
  results[name] = { wall: median(sample.wall), cpu: median(sample.cpu), bytes: sample.bytes };
const peak = process.resourceUsage().maxRSS / 1024;

if (values.json) {
  console.log(JSON.stringify({ works: count, runs, results, peakRssMB: peak }));
} else {
  const peer = results["peer: JSON.stringify"]!.cpu;
  console.log(`${count} works, medians of ${runs} runs (after one warm-up), files in ${tmpdir()}`);
  for (const [name, { wall, cpu, bytes }] of Object.entries(results)) {
    const size = name === "map only" ? `${bytes} fields` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `${name.padEnd(22)} wall ${wall.toFixed(0).padStart(6)} ms   cpu ${cpu.toFixed(0).padStart(6)} ms   ${(cpu / peer).toFixed(2).padStart(5)}x the peer's CPU   ${size}`,
    );
  }
  console.log(`peak RSS of the process: ${peak.toFixed(0)} MB`);
}

if (!values["no-builds"]) await buildsSection();

/** What one child build reports. */
interface Child {
  seconds: number;
  maxRssMB: number;
  cpuSeconds: number;
  written: number;
}

/** `--child CONTENT OUT CACHE yes|no`: one API-only build in this process, its figures as JSON. */
async function buildChild(): Promise<never> {
  const [content, out, cacheDir, marc] = positionals;
  // The compiled program (`npm run compile`), as the installed command runs: from the sources,
  // every writer thread would load tsx and compile the modules it runs. What the command sets
  // before it builds, the heap's tuning, is set here too: build() itself tunes nothing.
  const lib = (module: string) => `../lib/src/${module}.js`;
  const { build } = (await import(
    lib("pipeline/pipeline")
  )) as typeof import("../src/pipeline/pipeline.ts");
  const { checkUpToDate } = (await import(
    lib("pipeline/up-to-date")
  )) as typeof import("../src/pipeline/up-to-date.ts");
  const { withTunedHeap } = (await import(
    lib("util/memory")
  )) as typeof import("../src/util/memory.ts");
  const started = performance.now();
  const options = { contentDir: content!, outDir: out!, date: DATE, site: false, cacheDir };
  const checked = await checkUpToDate(options);
  const summary = await withTunedHeap(checked.size, false, () =>
    build({ ...options, checked, marcFiles: marc === "yes" }),
  );
  const usage = process.resourceUsage();
  const figures: Child = {
    seconds: (performance.now() - started) / 1000,
    maxRssMB: usage.maxRSS / 1024,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    written: summary.written,
  };
  console.log(JSON.stringify(figures));
  process.exit(0);
}

async function buildsSection(): Promise<void> {
  const exec = promisify(execFile);
  const domains = Number(values.domains);
  const work = mkdtempSync(path.join(tmpdir(), "bench-marc-builds-"));
  const content = path.join(work, "content");
  const cache = path.join(work, "cache");
  const log = (message: string) =>
    console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
  const child = async (out: string, marc: boolean): Promise<Child> => {
    const { stdout } = await exec(
      process.execPath,
      [
        ...process.execArgv,
        import.meta.filename,
        "--child",
        content,
        out,
        cache,
        marc ? "yes" : "no",
      ],
      { maxBuffer: 1 << 26 },
    );
    return JSON.parse(stdout.trim().split("\n").at(-1)!) as Child;
  };
  const fresh = async (out: string) => {
    await rm(out, { recursive: true, force: true });
    await rm(path.join(work, `.${path.basename(out)}.versions`), { recursive: true, force: true });
  };
  try {
    log(`generating ${count} works × ${domains} domains in ${work}`);
    await generateCatalogue(content, { works: count, domains });
    log("warm-up build (fills the image cache)");
    await child(path.join(work, "warm-up"), true);
    await fresh(path.join(work, "warm-up"));
    const pairs: Record<"marc" | "none", Child>[] = [];
    for (let i = 0; i < runs; i++) {
      const pair = {} as Record<"marc" | "none", Child>;
      for (const kind of i % 2 === 0 ? (["marc", "none"] as const) : (["none", "marc"] as const)) {
        const out = path.join(work, `out-${kind}`);
        await fresh(out);
        pair[kind] = await child(out, kind === "marc");
        log(
          `API-only build ${kind === "marc" ? "with the MARC files" : "without them"}: ${pair[kind].seconds.toFixed(2)} s, ${pair[kind].cpuSeconds.toFixed(2)} s CPU, max RSS ${pair[kind].maxRssMB.toFixed(0)} MB`,
        );
      }
      pairs.push(pair);
    }
    const med = (pick: (pair: Record<"marc" | "none", Child>) => number) => median(pairs.map(pick));
    const time = med((p) => p.marc.seconds / p.none.seconds);
    const cpuRatio = med((p) => p.marc.cpuSeconds / p.none.cpuSeconds);
    const rss = med((p) => p.marc.maxRssMB / p.none.maxRssMB);

    // A one-work rename, rebuilt with the MARC files into the output that has them.
    const out = path.join(work, "out-marc");
    const marcFiles = async () => {
      const found: { file: string; ino: number; ids: Set<string> }[] = [];
      for (let d = 1; d <= domains; d++)
        for (const kind of ["export_excel", "export_up_movies", "export_down_movies"])
          for (const extension of ["mrc", "xml"]) {
            const file = path.join(out, `domain-${d}.example/_api/export/${kind}.${extension}`);
            const mrc = file.replace(/\.xml$/, ".mrc");
            const ids = new Set(
              readIso2709(await readFile(mrc))
                .map((r) => r.fields.find((f) => f.tag === "001") as { value: string })
                .map((f) => f.value),
            );
            found.push({ file, ino: (await stat(file)).ino, ids });
          }
      return found;
    };
    const before = await marcFiles();
    const csv = path.join(content, "audiovisuals.csv");
    const original = await readFile(csv, "utf8");
    const renamed = original.replace(/\n1,([^,\n]+),/, "\n1,$1 (restaurada),");
    if (renamed === original) throw new Error("no work with id 1 on the first data row");
    await writeFile(csv, renamed);
    const rebuild = await child(out, true);
    const after = await marcFiles();
    const rewritten = after.filter((f, i) => f.ino !== before[i]!.ino).map((f) => f.file);
    const holding = before.filter((f) => f.ids.has("catav1")).map((f) => f.file);
    const exact =
      rewritten.length === holding.length && rewritten.every((file) => holding.includes(file));

    const pct = (ratio: number) => `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)} %`;
    const rows: BenchRow[] = [
      {
        measure: `API-only build (--no-site) with the MARC files against without (${count} works × ${domains} domains, medians of ${runs} pairs)`,
        ours: `${med((p) => p.marc.seconds).toFixed(2)} s (${med((p) => p.marc.cpuSeconds).toFixed(2)} s CPU)`,
        peer: `${med((p) => p.none.seconds).toFixed(2)} s (${med((p) => p.none.cpuSeconds).toFixed(2)} s CPU)`,
        ratio: `${pct(time)} wall, ${pct(cpuRatio)} CPU`,
        target: "<= +15 %",
      },
      {
        measure: "peak memory (max RSS) of that build with the MARC files against without",
        ours: `${med((p) => p.marc.maxRssMB).toFixed(0)} MB`,
        peer: `${med((p) => p.none.maxRssMB).toFixed(0)} MB`,
        ratio: pct(rss),
        target: "within 5 %",
      },
      {
        measure: "a one-work rename: MARC files written again",
        ours: `${rewritten.length} of ${after.length} (${exact ? "exactly" : "NOT exactly"} the ${holding.length} that hold the work), rebuild ${rebuild.seconds.toFixed(2)} s`,
        target: "only those that hold it",
      },
    ];
    await reportRows(rows);
    if (values.json) console.log(JSON.stringify({ builds: { pairs, rows } }));
    else
      for (const row of rows)
        console.log(
          `${row.measure}: ${row.ours}${row.peer ? ` against ${row.peer}` : ""}${row.ratio ? ` (${row.ratio})` : ""}${row.target ? `; target ${row.target}` : ""}`,
        );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
