import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/serve/server.ts";
import { buildFixture, generatedContent, ROOT, tempDir } from "../helpers/catalogue.ts";
import { CHROMIUM, launchChromium } from "../helpers/chromium.ts";
import { catalogue } from "../support/command.ts";
import { requireTool } from "../support/requires.ts";
import {
  FACETS,
  facetCounts,
  filterWorks,
  query,
  referenceWorks,
  type Facet,
  type RefWork,
  type Selection,
} from "./filters-reference.ts";

/**
 * The filter panel and the search box in Chromium, online (the serve command's server) and from
 * file:// (an unpacked offline archive), against the plain computation over the CSV rows of
 * filters-reference.ts: the works shown on the first and the last page in every ordering, the
 * live region's text, and every checkbox's count in its accessible name.
 */

const chromium = requireTool(CHROMIUM, "the filter panel's tests in Chromium");
const DATE = "2026-11-20";
const DOMAIN = "domain-1.example";
const ORDERINGS = ["name", "-name", "year", "-year"] as const;
type Ordering = (typeof ORDERINGS)[number];

let root: { dir: string; cleanup: () => Promise<void> };
let content: string;
let browser: Browser;
let server: RunningServer;
let online: string;
let offline: string;
let orders: Record<Ordering, RefWork[]>;
/** Each version's orderings, by its folder: its own titles' order. */
const versionOrders = new Map<string, Record<Ordering, RefWork[]>>();
const texts = JSON.parse(await readFile(path.join(ROOT, "i18n/es.json"), "utf8")) as Record<
  string,
  string | Record<string, string>
>;

beforeAll(async () => {
  root = await tempDir("catalogue-filters-");
  content = await generatedContent(root.dir, { works: 260, domains: 1, browse: true });
  // Two more language versions: search across languages from each.
  const domains = path.join(content, "domains.csv");
  const [header, row] = (await readFile(domains, "utf8")).trim().split("\n");
  await writeFile(domains, `${header},languages\n${row},en eu\n`);
  const dist = path.join(root.dir, "dist");
  await buildFixture(content, dist, { site: true });
  for (const [version, lang] of [
    ["", "es"],
    ["en/", "en"],
    ["eu/", "eu"],
  ])
    versionOrders.set(version!, await referenceWorks(content, DOMAIN, DATE, lang));
  orders = versionOrders.get("")!;
  server = await startServer({ dir: dist, port: 0, host: "127.0.0.1" });
  online = server.url;
  const zip = path.join(root.dir, "copy.zip");
  const published = await catalogue(["publish", "--dir", dist, "--to", zip], { inherit: true });
  expect(published.code, published.stderr).toBe(0);
  const unpacked = path.join(root.dir, "copy");
  await mkdir(unpacked);
  await promisify(execFile)("unzip", ["-q", zip, "-d", unpacked]);
  offline = pathToFileURL(path.join(unpacked, DOMAIN)).href + "/";
  if (chromium !== null) browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await root?.cleanup();
});

/** A context that records script errors and policy violations. */
async function context(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`script: ${e.message}`));
  page.on("console", (m) => void (m.type() === "error" && problems.push(`console: ${m.text()}`)));
  await page.addInitScript(
    `document.addEventListener("securitypolicyviolation", (e) => console.error("policy: " + e.violatedDirective + " " + e.blockedURI))`,
  );
  return { context: ctx, page, problems };
}

/** Whether the panel has finished applying a state (a function: a string would be eval'd, which the policy refuses). */
const timed = () =>
  (globalThis as unknown as { document: { body: { dataset: Record<string, string> } } }).document
    .body.dataset.browseTiming !== undefined;

/** Opens the page and waits for the panel to have applied the URL's state. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(timed);
}
const settled = async (page: Page, action: () => Promise<unknown>) => {
  await page.evaluate("delete document.body.dataset.browseTiming");
  await action();
  await page.waitForFunction(timed);
};

const shownIds = (page: Page) =>
  page.evaluate<number[]>(
    `[...document.querySelectorAll("[data-results] .card")].map((c) => Number(c.dataset.id))`,
  );
const liveText = (page: Page) => page.locator("[data-live]").textContent();
/** Every visible checkbox: facet, value, checked and the count its accessible name ends with. */
const checkboxes = (page: Page) =>
  page.evaluate<{ facet: string; value: string; checked: boolean; count: number }[]>(
    `[...document.querySelectorAll("[data-facets] li:not([hidden]) input[type=checkbox]")].map((b) => ({
      facet: b.name,
      value: b.value,
      checked: b.checked,
      count: Number(/\\((\\d+)\\)$/.exec(b.labels[0].textContent.trim())?.[1] ?? NaN),
    }))`,
  );

function expectedLive(n: number): string {
  if (n === 0) return texts["search.none"] as string;
  const forms = texts["search.count"] as Record<string, string>;
  return (n === 1 ? forms.one! : forms.other!).replace("{n}", String(n));
}

/** The URL's facet as the panel names it: availability is new=1 / leaving=1. */
async function check(
  page: Page,
  at: At,
  selection: Selection,
  ordering: Ordering,
  lastPage: boolean,
  version = "",
): Promise<void> {
  const matched = filterWorks(versionOrders.get(version)![ordering], selection);
  const pages = Math.max(1, Math.ceil(matched.length / 20));
  const pageNumber = lastPage ? pages : 1;
  const extra: Record<string, string> = { ordering };
  if (pageNumber > 1) extra.page = String(pageNumber);
  const where = at(version, query(selection, extra));
  await open(page, where);
  // The live region's words are the locale's (es.json) on its own version only.
  if (version === "") expect(await liveText(page), where).toBe(expectedLive(matched.length));
  expect(await shownIds(page), where).toEqual(
    matched.slice((pageNumber - 1) * 20, pageNumber * 20).map((w) => w.id),
  );
  for (const box of await checkboxes(page)) {
    const counts = facetCounts(orders.name, selection, box.facet as Facet);
    expect(box.count, `${where}: ${box.facet}=${box.value}`).toBe(counts.get(box.value) ?? 0);
    expect(box.checked).toBe((selection[box.facet as Facet] ?? []).includes(box.value));
  }
}

/** Each facet's values by number of works, most first. */
function valuesByCount(facet: Facet): string[] {
  const counts = facetCounts(orders.name, {}, facet);
  return [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : 1));
}
/** A sample of a facet's values: the most common, the rarest and a few between. */
function sample(facet: Facet, size: number): string[] {
  const values = valuesByCount(facet);
  if (values.length <= size) return values;
  const step = (values.length - 1) / (size - 1);
  return [...new Set(Array.from({ length: size }, (_, i) => values[Math.round(i * step)]!))];
}
const pairs = () =>
  FACETS.flatMap((a, i) => FACETS.slice(i + 1).map((b) => [a, b] as [Facet, Facet]));

/** A page of a version ("" or "en/") with a query: folders online, their index.html from file://. */
type At = (version: string, search?: string) => string;
const onlineAt: At = (version, search = "") => `${online}${version}${search}`;
const offlineAt: At = (version, search = "") => `${offline}${version}index.html${search}`;

describe.runIf(chromium !== null).each([
  ["online", onlineAt, 8],
  ["from file://", offlineAt, 3],
])("the filter panel %s", (_, at: At, perFacet) => {
  it("answers each filter alone as the CSV rows do: works, counts, live region", async () => {
    const { context: ctx, page, problems } = await context();
    for (const facet of FACETS)
      for (const value of sample(facet, perFacet))
        await check(page, at, { [facet]: [value] }, "name", false);
    // Two values of one facet: either.
    const [x, y] = valuesByCount("country");
    await check(page, at, { country: [x!, y!] }, "year", true);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("answers each pair of filters in the four orderings, first and last page", async () => {
    const { context: ctx, page, problems } = await context();
    const list = pairs();
    for (const [k, [a, b]] of list.entries()) {
      // The most common values, and for every other pair one rarer: empty and one-work results too.
      const va = valuesByCount(a)[k % 2 === 0 ? 0 : 1]!;
      const vb = valuesByCount(b).at(k % 3 === 0 ? -1 : 0)!;
      const ordering = ORDERINGS[k % 4]!;
      await check(page, at, { [a]: [va], [b]: [vb] }, ordering, k % 2 === 1);
      if (at === offlineAt && k >= 10) break;
    }
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("orders each version's results by the titles it shows, in its collation", async () => {
    const { context: ctx, page, problems } = await context();
    const selection: Selection = { category: [valuesByCount("category")[0]!] };
    const ids = (list: RefWork[]) => filterWorks(list, selection).map((w) => w.id);
    for (const version of ["en/", "eu/"]) {
      // The version's title order is not the locale's, or this would prove nothing.
      expect(ids(versionOrders.get(version)!.name)).not.toEqual(ids(orders.name));
      for (const [k, ordering] of ORDERINGS.entries())
        await check(page, at, selection, ordering, k % 2 === 1, version);
    }
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("finds works by their title in any language and by their director, from every version", async () => {
    const { context: ctx, page, problems } = await context();
    const work = orders.name.find((w) => w.names.en && w.director !== null)!;
    for (const version of ["", "en/", "eu/"]) {
      await open(page, at(version, `?q=${encodeURIComponent(work.names.en!)}`));
      expect(await shownIds(page)).toContain(work.id);
      await open(page, at(version, `?q=${encodeURIComponent(work.name)}`));
      expect(await shownIds(page)).toContain(work.id);
    }
    // On the Basque pages, the card shows the Basque title (or the locale's) and the English one found.
    await open(page, at("eu/", `?q=${encodeURIComponent(work.names.en!)}&ordering=name`));
    const card = page.locator(`[data-results] .card[data-id="${work.id}"]`);
    expect(await card.locator(".card-title").textContent()).toBe(work.names.eu ?? work.name);
    if (work.names.eu === undefined)
      expect(await card.locator(".card-also").textContent()).toContain(work.names.en!);
    // By director: every work of theirs.
    const director = work.director!;
    await open(page, at("", `?q=${encodeURIComponent(director.name)}&ordering=name`));
    const words = director.name.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").split(/\W+/u);
    const expected = orders.name.filter((w) => {
      const text = ` ${[w.name, ...Object.values(w.names), w.director?.name ?? ""].join(" ")}`
        .toLowerCase()
        .normalize("NFD")
        .replace(/\p{M}/gu, "")
        .replace(/[^\p{L}\p{N}]+/gu, " ");
      return words.filter(Boolean).every((word) => text.includes(` ${word}`));
    });
    expect(await liveText(page)).toBe(expectedLive(expected.length));
    expect(await shownIds(page)).toEqual(expected.slice(0, 20).map((w) => w.id));
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("keeps the state in the URL: reload, back and forward", async () => {
    const { context: ctx, page, problems } = await context();
    // A selection of more than one page, on its second page.
    const first: Selection = { country: [valuesByCount("country")[0]!] };
    await open(page, at("", query(first, { ordering: "-year", page: "2" })));
    const firstIds = await shownIds(page);
    const reference = filterWorks(orders["-year"], first);
    expect(reference.length).toBeGreaterThan(20);
    expect(firstIds).toEqual(reference.slice(20, 40).map((w) => w.id));
    const firstUrl = page.url();
    const category = valuesByCount("category")[0]!;
    await settled(page, () => page.locator(`input[name=category][value="${category}"]`).check());
    expect(new URL(page.url()).searchParams.getAll("category")).toEqual([category]);
    expect(new URL(page.url()).searchParams.get("page")).toBeNull();
    const second = filterWorks(orders["-year"], { ...first, category: [category] });
    expect(await shownIds(page)).toEqual(second.slice(0, 20).map((w) => w.id));
    await settled(page, () => page.goBack());
    expect(page.url()).toBe(firstUrl);
    expect(await shownIds(page)).toEqual(firstIds);
    expect(await page.locator(`input[name=category][value="${category}"]`).isChecked()).toBe(false);
    await open(page, page.url());
    expect(await shownIds(page)).toEqual(firstIds);
    await settled(page, () => page.goForward());
    expect(await shownIds(page)).toEqual(second.slice(0, 20).map((w) => w.id));
    // Unknown values and bad pages are ignored.
    await page.goto(at("", "?decade=1&country=ZZ&page=x&ordering=up"));
    await page.waitForFunction(timed);
    expect(await page.locator("[data-results]").isVisible()).toBe(false);
    expect(await page.locator("[data-static] .card").count()).toBe(20);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("works by keyboard alone, with one polite live region", async () => {
    const { context: ctx, page, problems } = await context();
    await page.goto(at(""));
    await page.evaluate(
      `self.pointers = 0; document.addEventListener("pointerdown", () => self.pointers++, true)`,
    );
    expect(await page.locator('[aria-live="polite"]').count()).toBe(1);
    expect(await page.locator('[role="status"]').count()).toBe(1);
    const focused = () =>
      page.evaluate<string>(`(() => {
        const e = document.activeElement;
        return e.tagName.toLowerCase() + (e.hasAttribute("data-filters-open") ? "[open]" : "") +
          (e.type === "checkbox" ? "[checkbox]" : "") + (e.getAttribute("rel") === "next" ? "[next]" : "");
      })()`);
    const tabTo = async (what: string) => {
      for (let i = 0; i < 300; i++) {
        await page.keyboard.press("Tab");
        const now = await focused();
        expect(now).not.toBe("body");
        if (now === what) return;
      }
      throw new Error(`never reached ${what}`);
    };
    await tabTo("button[open]");
    await page.keyboard.press("Enter");
    await page.locator("[data-facets] input[type=checkbox]").first().waitFor();
    await tabTo("input[checkbox]");
    const box = await page.evaluate<{ name: string; value: string }>(
      `({ name: document.activeElement.name, value: document.activeElement.value })`,
    );
    await settled(page, () => page.keyboard.press("Space"));
    expect(
      new URL(page.url()).searchParams.getAll(box.name === "availability" ? box.value : box.name),
    ).toEqual([box.name === "availability" ? "1" : box.value]);
    const matched = filterWorks(orders.name, { [box.name]: [box.value] });
    expect(await liveText(page)).toBe(expectedLive(matched.length));
    if (matched.length > 20) {
      await tabTo("a[next]");
      await settled(page, () => page.keyboard.press("Enter"));
      expect(await focused()).toBe("h2");
      expect(await shownIds(page)).toEqual(matched.slice(20, 40).map((w) => w.id));
    }
    expect(await page.evaluate<number>("self.pointers")).toBe(0);
    expect(problems).toEqual([]);
    await ctx.close();
  });
});

describe.runIf(chromium !== null)("a filtered view", () => {
  it("draws the same cards as the static pages, in each version", async () => {
    const { context: ctx, page, problems } = await context();
    // Cards reduced to what a reader gets: links resolved, no loading hint, no blank text.
    const normalised = (selector: string) =>
      page.evaluate<string>(`(() => {
        const list = document.querySelector(${JSON.stringify(selector)}).cloneNode(true);
        for (const a of list.querySelectorAll("a")) a.setAttribute("href", a.href);
        for (const e of list.querySelectorAll("[loading]")) e.removeAttribute("loading");
        for (const e of list.querySelectorAll("[data-id]")) e.removeAttribute("data-id");
        const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
        const blank = [];
        while (walker.nextNode()) if (walker.currentNode.data.trim() === "") blank.push(walker.currentNode);
        for (const t of blank) t.remove();
        return list.outerHTML;
      })()`);
    for (const version of ["", "en/", "eu/"]) {
      // The page's own ordering, asked for: the results are the static page's works.
      await open(page, onlineAt(version, "?ordering=name"));
      const drawn = await normalised("[data-results] ol.cards");
      expect(drawn).toBe(await normalised("[data-static] ol.cards"));
      expect(drawn).toContain('class="card"');
    }
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("has no serious accessibility violation (axe), in the locale and in another language", async () => {
    const ctx = await browser.newContext({ bypassCSP: true });
    const page = await ctx.newPage();
    const axe = await readFile(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
    const selection: Selection = {
      category: [valuesByCount("category")[0]!],
      decade: [valuesByCount("decade")[0]!],
    };
    for (const version of ["", "eu/"]) {
      await open(page, `${online}${version}${query(selection)}`);
      await page.locator("[data-filters-open]").click();
      await page.addScriptTag({ content: axe });
      const result = await page.evaluate<{ violations: { id: string; nodes: unknown[] }[] }>(
        "axe.run(document, { resultTypes: ['violations'] })",
      );
      expect(result.violations.map((v) => `${v.id} (${v.nodes.length})`)).toEqual([]);
    }
    await ctx.close();
  });

  it("shows no panel without JavaScript, and the static listing", async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${online}?decade=1960`);
    expect(await page.locator("[data-browse-panel]").isVisible()).toBe(false);
    expect(await page.locator(".cards .card").count()).toBe(20);
    await ctx.close();
  });
});
