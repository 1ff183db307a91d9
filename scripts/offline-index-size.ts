/**
 * The size of the file:// search index of offline archives (src/publish/offline/search-script.ts) for a
 * generated catalogue, per 1,000 works and in all, and how long a browser takes to load it and
 * answer the first search and the next ones (Chromium, from file://).
 *
 *   npx tsx scripts/offline-index-size.ts [--works 100000] [--dir /dev/shm/offline-index] [--no-browser]
 *
 * The index is made from the same fields the archive reads from the work pages (id, slug, title,
 * director), here taken from the model instead of rendered pages, so a catalogue of 100,000
 * works is measured without building its site. Generated slugs are short (`obra-123`); real
 * ones usually spell the title, so the size is also given with slugs made from the titles.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { loadCatalogue } from "../src/content/load.ts";
import { domainView } from "../src/model/domain-view.ts";
import { searchIndexScript, type SearchEntry } from "../src/publish/offline/search-script.ts";
import { generateCatalogue } from "./generate.ts";

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "100000" },
    dir: { type: "string", default: "/dev/shm/offline-index" },
    "no-browser": { type: "boolean", default: false },
  },
});
const works = Number(values.works);
const dir = values.dir;
await rm(dir, { recursive: true, force: true });
await generateCatalogue(path.join(dir, "content"), { works, domains: 1 });
const catalogue = await loadCatalogue(path.join(dir, "content"));
const view = domainView(catalogue, catalogue.domains[0]!, "2026-11-20");
const listed = view.orders.name;
const entries: SearchEntry[] = listed.map(({ work, director }) => ({
  id: work.id,
  slug: work.slug,
  title: work.name,
  director: director?.name ?? null,
}));
const slugOf = (title: string) =>
  title
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
const titled = entries.map((e) => ({ ...e, slug: `${slugOf(e.title)}-${e.id}` }));

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const script = searchIndexScript(entries, view.domain.locale);
for (const [label, text] of [
  ["generated slugs", script],
  ["slugs from titles", searchIndexScript(titled, view.domain.locale)],
] as const) {
  const bytes = Buffer.byteLength(text);
  console.log(
    `${label}: ${listed.length} listed works, ${(bytes / 1e6).toFixed(2)} MB, ${kb((bytes / listed.length) * 1000)} per 1,000 works`,
  );
}

if (!values["no-browser"] && existsSync("/usr/bin/chromium")) {
  // A page with the site's search box and script, the index beside it as in an archive.
  const site = path.join(dir, "site");
  await mkdir(path.join(site, "assets"), { recursive: true });
  await writeFile(path.join(site, "assets/search-index.js"), script);
  await writeFile(
    path.join(site, "assets/search.js"),
    await readFile(path.resolve(import.meta.dirname, "../src/site/assets/search.js")),
  );
  await writeFile(
    path.join(site, "index.html"),
    `<!doctype html><html lang="es"><head><meta charset="utf-8"></head><body><form data-search data-none="none" data-count="{n}" data-count-one="1" hidden><input type="search"><div data-search-results></div></form>` +
      `<script src="assets/search.js" data-pagefind="pagefind/pagefind.js" data-offline-search="assets/search-index.js"></script></body></html>`,
  );
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path.join(site, "index.html")).href);
    const box = page.locator('input[type="search"]');
    const timed = async (term: string) => {
      const started = performance.now();
      await box.fill(term);
      await page.locator("[data-search-results] p").waitFor();
      const count = await page.locator("[data-search-results] p").textContent();
      return `${(performance.now() - started).toFixed(0)} ms (${count} found)`;
    };
    const sample = listed[Math.floor(listed.length / 2)]!.work.name;
    console.log(`first search (loads the index): ${await timed(sample)}`);
    const again: string[] = [];
    for (const term of ["a", "luna", sample, "directora 5"]) {
      await box.fill("");
      again.push(`"${term}" ${await timed(term)}`);
    }
    console.log(`then: ${again.join("; ")}`);
  } finally {
    await browser.close();
  }
}
