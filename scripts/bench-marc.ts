/**
 * Time to turn many works (default 20,000) into MARC records and write them as ISO 2709, as
 * MARCXML, and as both in one pass (each record made once), to files in TMPDIR chunk by chunk as
 * a build would. The peer measured in
 * the same run is JSON.stringify of the same works (the cost of the plainest serialisation of the
 * same data), so the figures read as ratios on a shared machine. Medians of --runs runs.
 *
 *   TMPDIR=/dev/shm npx tsx scripts/bench-marc.ts [--works 20000] [--runs 5] [--json]
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeMarcFiles } from "../src/marc/record-files.ts";
import { iso2709Chunks } from "../src/marc/iso2709.ts";
import { marcMapper, marcRecords } from "../src/marc/map.ts";
import { marcxmlChunks } from "../src/marc/marcxml.ts";
import { DOMAIN, generatedWorks } from "../test/marc/works.ts";

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "20000" },
    runs: { type: "string", default: "5" },
    json: { type: "boolean", default: false },
  },
});
const count = Number(values.works);
const runs = Number(values.runs);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1) {
  console.error("usage: tsx scripts/bench-marc.ts [--works N] [--runs N] [--json]");
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
