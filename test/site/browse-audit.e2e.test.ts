import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser as Chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView } from "../../src/model/domain-view.ts";
import { startServer, type RunningServer } from "../../src/serve/server.ts";
import { ROOT, tempDir } from "../helpers/catalogue.ts";
import { launchChromium } from "../helpers/chromium.ts";
import { requireTool } from "../support/requires.ts";
import { buildSite } from "./fixture.ts";
import {
  CHROMIUM,
  launchBrowser,
  LH_DOMAINS,
  LH_LANGUAGE,
  lighthouseContent,
  type Browser,
} from "./lighthouse.ts";

/**
 * The new page kinds in a browser: the decades' index, a decade, new/, leaving/, a work page
 * with every browsing fact and a filtered view of the home page (two filters from the URL, the
 * panel's cards in place of the grid), in the locale's language and in another (Valencian): axe
 * finds no violation, and Lighthouse scores accessibility and SEO 100.
 */

// In CI a missing browser is a failure, never a silent skip.
const run = describe.runIf(requireTool(CHROMIUM, "the browse pages' audits") !== null);

let cleanup: () => Promise<void>;
let server: RunningServer;
const pages: [string, string][] = [];
/** The filtered views among `pages`: the panel must have applied their state before an audit. */
const filtered = new Set<string>();
/** How many works each filtered view shows, from the model. */
let filteredCount = 0;

beforeAll(async () => {
  const temp = await tempDir("catalogue-browse-audit-");
  cleanup = temp.cleanup;
  const content = await lighthouseContent(temp.dir);
  // Work 1 with every browsing column; a few works leaving (their window ends within 30 days).
  const works = path.join(content, "audiovisuals.csv");
  const lines = (await readFile(works, "utf8")).trimEnd().split("\n");
  lines[0] += ",country,audio_languages,subtitle_languages,age_rating,accessibility,name_va";
  for (let i = 1; i < lines.length; i++)
    lines[i] += lines[i]!.startsWith("1,")
      ? ',ES FR,es va,en,TP,audio-description captions sign-language,"Títol, en valencià"'
      : ",,,,,,";
  await writeFile(works, lines.join("\n") + "\n");
  const availability = path.join(content, "availability.csv");
  const windows = (await readFile(availability, "utf8")).split("\n").map((line) => {
    const from = /^\d,biblioteca\.localhost,([^,]*),$/.exec(line)?.[1];
    return from !== undefined && from <= "2026-11-20" ? `${line}2026-11-25` : line;
  });
  await writeFile(availability, windows.join("\n"));
  const out = path.join(temp.dir, "out");
  await buildSite(content, out);
  server = await startServer({ dir: out, port: 0, host: "127.0.0.1" });
  const port = new URL(server.url).port;
  const catalogue = await loadCatalogue(content, () => {});
  const domain = catalogue.domains.find((d) => d.domain === LH_DOMAINS.es)!;
  const view = domainView(catalogue, domain, "2026-11-20");
  expect(view.orders.name.some((l) => l.isLeaving)).toBe(true);
  const first = view.orders.name.find((l) => l.work.year !== null)!.work.year!;
  const work = view.orders.name.find((l) => l.work.id === 1)?.work;
  const decade = first - (first % 10);
  const category = view.orders.name.find((l) => l.work.year === first)!.work.audiovisual_type!;
  filteredCount = view.orders.name.filter(
    (l) =>
      l.work.audiovisual_type === category &&
      l.work.year !== null &&
      l.work.year - (l.work.year % 10) === decade,
  ).length;
  for (const prefix of ["", `${LH_LANGUAGE}/`]) {
    const site = `http://${LH_DOMAINS.es}:${port}/${prefix}`;
    const lang = prefix === "" ? "es" : LH_LANGUAGE;
    pages.push(
      [`${lang} decades`, `${site}decade/`],
      [`${lang} decade`, `${site}decade/${decade}/`],
      [`${lang} new`, `${site}new/`],
      [`${lang} leaving`, `${site}leaving/`],
    );
    if (work !== undefined)
      pages.push([`${lang} work`, `${site}audiovisual-detail/${work.id}/${work.slug}/`]);
    const filteredUrl = `${site}?category=${category}&decade=${decade}&ordering=-year`;
    pages.push([`${lang} filtered`, filteredUrl]);
    filtered.add(filteredUrl);
  }
}, 180_000);
afterAll(async () => {
  await server?.close();
  await cleanup?.();
});

/** Whether the panel has finished applying a state (a function: the policy refuses eval). */
const timed = () =>
  (globalThis as unknown as { document: { body: { dataset: Record<string, string> } } }).document
    .body.dataset.browseTiming !== undefined;

run("the browse pages in a browser", () => {
  it("have no axe violation, in the locale's language and in another", async () => {
    const chromium: Chromium = await launchChromium();
    const axe = await readFile(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
    const found: string[] = [];
    try {
      for (const [name, url] of pages) {
        // The server's policy refuses inline scripts, as it should: axe is injected past it.
        const page = await chromium.newPage({ bypassCSP: true });
        const response = await page.goto(url);
        expect(response?.status(), url).toBe(200);
        if (filtered.has(url)) {
          // The panel has applied the URL's state: its cards stand in place of the grid.
          await page.waitForFunction(timed);
          expect(await page.locator("[data-results] .card").count(), url).toBe(
            Math.min(filteredCount, 20),
          );
        }
        await page.addScriptTag({ content: axe });
        const result = await page.evaluate<{ violations: { id: string; nodes: unknown[] }[] }>(
          "axe.run(document, { resultTypes: ['violations'] })",
        );
        for (const v of result.violations) found.push(`${name}: ${v.id} (${v.nodes.length})`);
        await page.close();
      }
    } finally {
      await chromium.close();
    }
    expect(pages.length).toBeGreaterThanOrEqual(10);
    expect(filteredCount).toBeGreaterThan(0);
    expect(found).toEqual([]);
  }, 300_000);

  it("score Lighthouse accessibility and SEO 100", async () => {
    const browser: Browser = await launchBrowser();
    const results: string[] = [];
    try {
      for (const [name, url] of pages) {
        const { scores, failing } = await browser.audit(url, ["seo", "accessibility"]);
        if (scores.seo !== 1 || scores.accessibility !== 1)
          results.push(`${name} ${url}: ${JSON.stringify(scores)}\n  ${failing.join("\n  ")}`);
      }
    } finally {
      await browser.close();
    }
    expect(results).toEqual([]);
  }, 600_000);
});
