/**
 * Time and peak memory of writing one domain's three spreadsheets when it lists many works
 * (default 100,000; the ups and downs add a tenth and a fifth of that). The catalogue is built in
 * memory, so the figures are the exports' own, not CSV parsing or image processing.
 *
 *   npx tsx scripts/bench-exports.ts [--rows 100000] [--json]
 *
 * Peak RSS is the whole process's (Node, the in-memory catalogue and the exports); the RSS just
 * before the exports is printed beside it so that the exports' share is visible. A second build
 * of the same view into the same output then measures the keyed skip: all three files are kept
 * without making their rows.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { EXPORT_KINDS, exportPath } from "../src/api/layout.ts";
import type { Catalogue, Window } from "../src/content/load.ts";
import {
  AUDIOVISUAL_TYPES,
  type Audiovisual,
  type Director,
  type Domain,
} from "../src/content/schema.ts";
import { writeExports } from "../src/exports/write.ts";
import { dateOfDay, dayNumber } from "../src/util/dates.ts";
import { domainView } from "../src/model/domain-view.ts";
import { domainInfo } from "../src/pipeline/domain-files.ts";
import { domainInputs } from "../src/pipeline/domain-inputs.ts";
import { OutputTree } from "../src/output/tree.ts";
import { reportRows } from "./bench/rows.ts";
import { random } from "./generate.ts";

const DATE = "2026-11-20";
const MB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "100000" },
    json: { type: "boolean", default: false },
  },
});
const rows = Number(values.rows);
if (!Number.isInteger(rows) || rows < 1) {
  console.error("usage: tsx scripts/bench-exports.ts [--rows N] [--json]");
  process.exit(1);
}

const domain: Domain = {
  domain: "bench.example",
  name: "Red de bibliotecas de prueba",
  base_url: "https://bench.example",
  media_url: "https://bench.example/media",
  locale: "es",
  default_ordering: "name",
  new_days: 30,
  export_window_days: 30,
};

/** `rows` listed works (a tenth of them ups), plus a fifth as many withdrawn within the window (downs). */
function catalogue(): Catalogue {
  const rand = random(7);
  const today = dayNumber(DATE);
  const words = [
    "amanecer",
    "río",
    "ciudad",
    "sombra",
    "tren",
    "luna",
    "mar",
    "noche",
    "jardín",
    "Ébano",
    "ópera",
    "faro",
  ];
  const directors = new Map<number, Director>();
  for (let id = 1; id <= Math.ceil(rows / 10); id++) {
    directors.set(id, {
      id,
      name: `Directora ${words[id % words.length]} ${id}`,
      slug: `directora-${id}`,
      photo: null,
      show_img: false,
      description: null,
      description_es: null,
      description_en: null,
      description_ca: null,
      description_gl: null,
      description_eu: null,
      description_va: null,
      description_fr: null,
    });
  }
  const works: Audiovisual[] = [];
  const windows = new Map<number, Window>();
  const total = rows + Math.floor(rows / 5);
  for (let id = 1; id <= total; id++) {
    const name = `${words[Math.floor(rand() * words.length)]} ${words[Math.floor(rand() * words.length)]} ${id}`;
    works.push({
      id,
      name,
      slug: `obra-${id}`,
      audiovisual_type: AUDIOVISUAL_TYPES[id % AUDIOVISUAL_TYPES.length]!,
      director_id: 1 + (id % directors.size),
      year: 1895 + (id % 130),
      duration: 5 + (id % 170),
      cover: "covers/c.png",
      status_global: 1,
    });
    const listed = id <= rows;
    const from = listed && id % 10 === 0 ? today - (id % 30) : today - 40 - (id % 3000);
    const until = listed ? null : today - 1 - (id % 30);
    windows.set(id, { from: dateOfDay(from), until: until === null ? null : dateOfDay(until) });
  }
  return {
    domains: [domain],
    directors,
    works,
    windows: new Map([[domain.domain, windows]]),
    images: new Map(),
  };
}

const dir = await mkdtemp(path.join(tmpdir(), "catalogue-bench-exports-"));
try {
  const view = domainView(catalogue(), domain, DATE);
  // The works' inputs digests, as a build records them before it writes the exports.
  const { workDigests } = domainInputs("bench", view, domainInfo(view, false), new Map());
  // Collect the garbage of building the catalogue, so the figure before the exports is what it holds.
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  const rssBefore = process.memoryUsage().rss;
  const tree = await OutputTree.open(path.join(dir, "out"));
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  await writeExports(tree, view, workDigests);
  await tree.commit();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  // The same exports again, over the first build: every file is kept by its key.
  const again = await OutputTree.open(path.join(dir, "out"));
  const againStarted = performance.now();
  const againCpuStarted = process.cpuUsage();
  await writeExports(again, view, workDigests);
  const againCpu = process.cpuUsage(againCpuStarted);
  const againSeconds = (performance.now() - againStarted) / 1000;
  const reused = [...again.entries.values()].filter((entry) => !entry.fresh).length;
  await again.commit();
  const sizes = await Promise.all(
    EXPORT_KINDS.map((kind) =>
      stat(path.join(dir, "out", exportPath(domain.domain, kind))).then((s) => s.size),
    ),
  );
  const result = {
    rows: {
      export_excel: view.orders.name.length,
      export_up_movies: view.ups.length,
      export_down_movies: view.downs.length,
    },
    seconds: Number(seconds.toFixed(2)),
    // CPU time (user + system, all threads): steadier than wall time on a busy machine.
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    peakRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / MB),
    rssBeforeExportsMB: Math.round(rssBefore / MB),
    again: {
      seconds: Number(againSeconds.toFixed(2)),
      cpuSeconds: Number(((againCpu.user + againCpu.system) / 1e6).toFixed(2)),
      reused,
    },
    bytes: Object.fromEntries(EXPORT_KINDS.map((kind, i) => [kind, sizes[i]!])),
  };
  await reportRows([
    {
      measure: `exports, ${result.rows.export_excel} + ${result.rows.export_up_movies} + ${result.rows.export_down_movies} rows`,
      ours: `${result.seconds} s (${result.cpuSeconds} s CPU), peak RSS ${result.peakRssMB} MB (${result.rssBeforeExportsMB} MB before them); unchanged: ${result.again.seconds} s, ${reused} of ${EXPORT_KINDS.length} kept`,
      target: "stream: memory flat in rows",
    },
  ]);
  if (values.json) console.log(JSON.stringify(result));
  else {
    console.log(
      `exports: ${result.rows.export_excel} + ${result.rows.export_up_movies} + ${result.rows.export_down_movies} rows ` +
        `in ${result.seconds} s (${result.cpuSeconds} s of CPU), peak RSS ${result.peakRssMB} MB (${result.rssBeforeExportsMB} MB before the exports), ` +
        `export_excel.xlsx ${(sizes[0]! / MB).toFixed(1)} MB; ` +
        `unchanged again in ${result.again.seconds} s (${result.again.cpuSeconds} s of CPU), ${reused} of ${EXPORT_KINDS.length} files kept`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
