/**
 * The filter panel on a large domain: bytes transferred to open the filters and apply two of them,
 * and the time from the second click to the cards in the page, in headless Chromium, served with
 * nginx's default compression (gzip level 1) and with `catalogue serve`'s (brotli 5), and from
 * file://. Also the size of the index's files and the site build's time with them. A generated
 * catalogue with the browsing columns (`generate.ts --browse`), one domain; medians of --runs.
 *
 *   TMPDIR=/dev/shm npx tsx scripts/bench-browse.ts [--works 29500] [--runs 5] [--keep]
 *
 * About 68 % of the generated works are listed on the build date: 29,500 gives a domain of about
 * 20,000. The generator's covers are few and shared (24), so card chunks compress somewhat better
 * than a real catalogue's, where every work has its own cover file name.
 */
import { createServer } from "node:http";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { build } from "../src/pipeline/pipeline.ts";
import { reportRows, type BenchRow } from "./bench/rows.ts";
import { generateCatalogue } from "./generate.ts";

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "29500" },
    runs: { type: "string", default: "5" },
    keep: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const DATE = "2026-11-20";
const DOMAIN = "domain-1.example";
const work = await mkdtemp(path.join(tmpdir(), "bench-browse-"));
const content = path.join(work, "content");
const out = path.join(work, "dist");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await generateCatalogue(content, { works: Number(values.works), domains: 1, browse: true });
const started = performance.now();
const summary = await build({
  contentDir: content,
  outDir: out,
  date: DATE,
  cacheDir: path.join(work, "cache"),
  site: true,
});
const buildSeconds = (performance.now() - started) / 1000;
const site = path.join(out, DOMAIN);
const facets = await readFile(path.join(site, "browse/facets.js"), "utf8");
const listed = Number(/"n":(\d+)/.exec(facets)![1]);
console.log(
  JSON.stringify({ works: listed, buildSeconds: +buildSeconds.toFixed(1), files: summary }),
);

// The index's files: raw, gzip 1 and brotli 5 (as they would be sent).
const sizes = async (files: string[]) => {
  let raw = 0;
  let gzip = 0;
  let br = 0;
  for (const file of files) {
    const bytes = await readFile(file);
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 1 }).length;
    br += zlib.brotliCompressSync(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    }).length;
  }
  return {
    rawKiB: +(raw / 1024).toFixed(1),
    gzip1KiB: +(gzip / 1024).toFixed(1),
    br5KiB: +(br / 1024).toFixed(1),
  };
};
const browse = path.join(site, "browse");
for (const name of ["facets.js", "directors.js", "search.js", "labels.js"])
  console.log(JSON.stringify({ file: name, ...(await sizes([path.join(browse, name)])) }));
const chunks = (await readdir(path.join(browse, "cards"))).map((f) =>
  path.join(browse, "cards", f),
);
console.log(JSON.stringify({ file: `cards/ (${chunks.length})`, ...(await sizes(chunks)) }));
console.log(
  JSON.stringify({
    file: "assets/browse.js",
    ...(await sizes([path.join(site, "assets/browse.js")])),
  }),
);

// A static server of the domain's folder that counts the bytes it sends, compressed as asked.
let encoding: "gzip" | "br" = "gzip";
let sent = 0;
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
const server = createServer((req, res) => {
  void (async () => {
    let file = path.join(site, decodeURIComponent(new URL(req.url!, "http://x").pathname));
    if ((await stat(file).catch(() => null))?.isDirectory()) file = path.join(file, "index.html");
    const body = await readFile(file).catch(() => null);
    if (body === null) return void res.writeHead(404).end();
    const type = TYPES[path.extname(file)];
    let bytes = body;
    const headers: Record<string, string> = { "Content-Type": type ?? "application/octet-stream" };
    if (type !== undefined) {
      bytes =
        encoding === "br"
          ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
          : zlib.gzipSync(body, { level: 1 });
      headers["Content-Encoding"] = encoding;
    }
    sent += bytes.length;
    res.writeHead(200, headers).end(bytes);
  })();
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
type Pick = [facet: string, value: string];
const SCENARIOS: Record<string, Pick[]> = {
  "documentaries + 1960s": [
    ["category", "documentales"],
    ["decade", "1960"],
  ],
  "audio Catalan + subtitles English": [
    ["audio", "ca"],
    ["subtitles", "en"],
  ],
};

const settled = (page: Page) =>
  page.waitForFunction("document.body.dataset.browseTiming !== undefined");
/** Ticks a value's checkbox as a reader does: with the facet's "more" button first if it is not shown. */
async function tick(page: Page, [facet, value]: Pick) {
  const box = page.locator(`input[name="${facet}"][value="${value}"]`);
  if (!(await box.isVisible()))
    await page.locator(`fieldset[data-facet="${facet}"] > button`).click();
  await page.evaluate("delete document.body.dataset.browseTiming");
  const start = Date.now();
  await box.click();
  await settled(page);
  return Date.now() - start;
}

async function once(url: string, picks: Pick[]) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForLoadState("load");
  sent = 0;
  await page.locator("[data-filters-open]").click();
  await page.locator("[data-facets] input[type=checkbox]").first().waitFor();
  const open = sent;
  sent = 0;
  await tick(page, picks[0]!);
  const ms = await tick(page, picks[1]!);
  const inPage = JSON.parse(await page.evaluate<string>("document.body.dataset.browseTiming")) as {
    ms: number;
    results: number;
  };
  await new Promise((r) => setTimeout(r, 300));
  const filters = sent;
  await context.close();
  return {
    ms,
    inPage: inPage.ms,
    results: inPage.results,
    openKB: open / 1000,
    filtersKB: filters / 1000,
  };
}

const rows: BenchRow[] = [];
for (const [name, picks] of Object.entries(SCENARIOS)) {
  for (const kind of ["gzip", "br", "file"] as const) {
    encoding = kind === "br" ? "br" : "gzip";
    const url = kind === "file" ? pathToFileURL(path.join(site, "index.html")).href : origin;
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await once(url, picks));
    const ms = median(results.map((r) => r.ms));
    const first = results[0]!;
    const total = +(first.openKB + first.filtersKB).toFixed(1);
    console.log(
      JSON.stringify({
        scenario: name,
        kind,
        works: listed,
        results: first.results,
        clickToCardsMs: ms,
        all: results.map((r) => r.ms),
        inPageMs: +median(results.map((r) => r.inPage)).toFixed(1),
        ...(kind === "file"
          ? {}
          : {
              openKB: +first.openKB.toFixed(1),
              filtersKB: +first.filtersKB.toFixed(1),
              totalKB: total,
            }),
      }),
    );
    rows.push({
      measure: `filters on ${listed} works, ${name} (${kind === "file" ? "file://" : kind === "br" ? "brotli 5" : "gzip 1"}): click → cards${kind === "file" ? "" : ", bytes"}`,
      ours: `${ms} ms${kind === "file" ? "" : `, ${total} kB`}`,
      target: kind === "file" ? "≤ 300 ms" : "≤ 300 ms, ≤ 300 kB",
    });
  }
}
rows.push({
  measure: `site build with the browse index, ${listed} works, 1 domain`,
  ours: `${buildSeconds.toFixed(1)} s`,
});
await reportRows(rows);
await browser.close();
server.close();
if (!values.keep) await rm(work, { recursive: true, force: true });
else console.error(`kept ${work}`);
