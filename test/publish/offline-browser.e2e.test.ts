import { CHROMIUM, launchChromium } from "../helpers/chromium.ts";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { requireTool } from "../support/requires.ts";
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView, type DomainView } from "../../src/model/domain-view.ts";
import { startServer } from "../../src/serve/server.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { SCRIPT_ID, SCRIPT_TITLE } from "../site/fixture.ts";

/**
 * Offline archives opened as a reader would: unpacked, from file://, in Chromium with the
 * network off. Three domains: media on another host (`media_url` on a CDN host), the default
 * `media_url`, and a base path; a whole-network `.zip` and one-domain `.tar.gz` copies.
 */

const run = promisify(execFile);
// In CI a missing browser is a failure, never a silent skip.
const chromium = requireTool(CHROMIUM, "the tests of offline archives in Chromium");

const DATE = "2026-11-20";
/** A director with many works, whose name has accents a reader may not type. */
const DIRECTOR = { id: 9001, name: "Agnès Vàrdá", slug: "agnes-varda", works: 25 };
const DOMAINS = [
  {
    domain: "domain-1.example",
    home: "domain-1.example/index.html",
    media: "media.example.org/cat/",
  },
  {
    domain: "domain-2.example",
    home: "domain-2.example/index.html",
    media: "domain-2.example/media/",
  },
  {
    domain: "domain-3.example",
    home: "domain-3.example/cataleg/index.html",
    media: "domain-3.example/cataleg/media/",
  },
];

let root: { dir: string; cleanup: () => Promise<void> };
let dist: string;
let views: Map<string, DomainView>;
let browser: Browser;

async function makeContent(dir: string): Promise<string> {
  const content = await generatedContent(dir, { works: 70, domains: 3 });
  const domains = path.join(content, "domains.csv");
  let text = await readFile(domains, "utf8");
  text = text.replace(
    "domain-1.example,Red de bibliotecas 1,,",
    "domain-1.example,Red de bibliotecas 1,,https://media.example.org/cat",
  );
  text = text.replace(
    "domain-3.example,Red de bibliotecas 3,,",
    "domain-3.example,Red de bibliotecas 3,https://domain-3.example/cataleg,",
  );
  await writeFile(domains, text);
  await appendFile(
    path.join(content, "directors.csv"),
    `${DIRECTOR.id},${DIRECTOR.name},${DIRECTOR.slug},covers/cover-1.png,true,,,\n`,
  );
  let works = `${SCRIPT_ID},"${SCRIPT_TITLE.replace(/"/g, '""')}",script-title,peliculas,1,1950,90,covers/cover-0.png,1\n`;
  let availability = "";
  for (let i = 0; i < DIRECTOR.works; i++) {
    const id = 8000 + i;
    // Titles that repeat: the same name, two works.
    works += `${id},Les glaneurs ${Math.floor(i / 2)},glaneurs-${i},documentales,${DIRECTOR.id},${1960 + i},80,covers/cover-${i % 5}.png,1\n`;
  }
  for (const { domain } of DOMAINS) {
    availability += `${SCRIPT_ID},${domain},2020-01-01,\n`;
    for (let i = 0; i < DIRECTOR.works; i++) availability += `${8000 + i},${domain},2020-01-01,\n`;
  }
  await appendFile(path.join(content, "audiovisuals.csv"), works);
  await appendFile(path.join(content, "availability.csv"), availability);
  return content;
}

beforeAll(async () => {
  root = await tempDir("catalogue-offline-");
  const content = await makeContent(root.dir);
  dist = path.join(root.dir, "dist");
  await buildFixture(content, dist, { site: true });
  const catalogue = await loadCatalogue(content);
  views = new Map(catalogue.domains.map((d) => [d.domain, domainView(catalogue, d, DATE)]));
  if (chromium !== null) {
    browser = await launchChromium();
  }
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await root?.cleanup();
});

/** Publishes the build into an archive and unpacks it; returns the unpacked folder. */
async function archive(name: string, domain?: string): Promise<string> {
  const file = path.join(root.dir, name);
  const published = await catalogue(
    ["publish", "--dir", dist, "--to", file, ...(domain ? ["--domain", domain] : [])],
    { inherit: true },
  );
  expect(published.code, published.stderr).toBe(0);
  const dir = `${file}.d`;
  await mkdir(dir);
  if (name.endsWith(".zip")) await run("unzip", ["-q", file, "-d", dir]);
  else await run("tar", ["-xzf", file, "-C", dir]);
  return dir;
}

/**
 * A browser context with the network off that records every request and what went wrong: console
 * errors, script errors, dialogs, failed requests, and requests for anything outside `inside`.
 */
async function offlineContext(inside: string) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.setOffline(true);
  const problems: string[] = [];
  const requests: string[] = [];
  const base = pathToFileURL(inside).href + "/";
  context.on("request", (r) => void requests.push(r.url()));
  // Whatever is not a file of the copy is refused (and reported), offline or not.
  await context.route("**/*", (route) =>
    route.request().url().startsWith(base) ? route.continue() : route.abort(),
  );
  context.on("page", (page) => watch(page, problems));
  const outside = () => requests.filter((url) => !url.startsWith(base) && !url.startsWith("data:"));
  return { context, problems, requests, outside };
}

function watch(page: Page, problems: string[]) {
  page.on(
    "console",
    (m) => void (m.type() === "error" && problems.push(`console: ${m.text()} (${page.url()})`)),
  );
  page.on("pageerror", (e) => problems.push(`script: ${e.message} (${page.url()})`));
  page.on("dialog", (d) => problems.push(`dialog: ${d.message()} (${page.url()})`));
  page.on(
    "requestfailed",
    (r) =>
      void (
        r.failure()?.errorText !== "net::ERR_ABORTED" &&
        problems.push(`failed: ${r.url()} (${r.failure()?.errorText})`)
      ),
  );
}

/** Scrolls through the page so lazy images load, then lists the images that did not, and those loaded from elsewhere. */
async function badImages(page: Page, media: string): Promise<string[]> {
  await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
  await page.waitForFunction("[...document.images].every((i) => i.complete)");
  const images = await page.evaluate<[string, number][]>(
    "[...document.images].map((i) => [i.currentSrc || i.src, i.naturalWidth])",
  );
  expect(images.length).toBeGreaterThan(0);
  return images
    .filter(([src, width]) => !(width > 0) || !src.includes(`/${media}`))
    .map(([src]) => src);
}

/** The site's own index, which the filter panel and the search box load (src/site/browse-index.ts). */
const isIndex = (url: string) => /\/browse\/[\w/-]+\.js$/.test(url);
const results = (page: Page) => page.locator("[data-results] .card");
const live = (page: Page) => page.locator("[data-live]");
const cardTitles = (page: Page) => page.locator(".cards .card-title").allTextContents();

/** Browses one domain of an unpacked copy from its root index.html, and searches it. */
async function browse(
  unpacked: string,
  d: (typeof DOMAINS)[number],
  network: boolean,
): Promise<void> {
  const view = views.get(d.domain)!;
  const { context, problems, requests, outside } = await offlineContext(unpacked);
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(path.join(unpacked, "index.html")).href);
    if (network) await page.locator("main a", { hasText: view.domain.name }).click();
    await page.waitForURL(pathToFileURL(path.join(unpacked, d.home)).href);
    const order = view.orders[view.domain.default_ordering];

    // The listing, its page 2.
    // The library's name once, in the header; the heading says what the page is.
    expect(await page.locator("header a.brand").textContent()).toBe(view.domain.name);
    expect(await cardTitles(page)).toEqual(order.slice(0, 20).map((l) => l.work.name));
    expect(await badImages(page, d.media)).toEqual([]);
    await page.locator("a[rel=next]").first().click();
    await page.waitForURL(/\/page\/2\/index\.html$/);
    expect(await cardTitles(page)).toEqual(order.slice(20, 40).map((l) => l.work.name));
    expect(await badImages(page, d.media)).toEqual([]);

    // A work of page 2 with a director and a category, its JSON and the spreadsheets.
    const listed = order
      .slice(20, 40)
      .find((l) => l.director !== null && l.work.audiovisual_type !== null)!;
    await page.locator(`.cards a[href*="audiovisual-detail/${listed.work.id}/"]`).click();
    await page.waitForURL(
      new RegExp(`/audiovisual-detail/${listed.work.id}/${listed.work.slug}/index\\.html$`),
    );
    expect(await page.locator("h1").textContent()).toBe(listed.work.name);
    expect(await badImages(page, d.media)).toEqual([]);
    const work = page.url();
    // The footer's links (the three spreadsheets and the Atom feed) are files of the archive.
    const footer = await page
      .locator("footer a")
      .evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href));
    expect(footer.filter((href) => /\/_api\/export\/export_\w+\.xlsx$/.test(href))).toHaveLength(3);
    for (const href of footer) {
      expect(href).toMatch(/\/_api\/export\/export_\w+\.xlsx$|\/feed\.atom$/);
      expect(existsSync(fileURLToPath(href)), href).toBe(true);
    }
    await page.locator('main a[type="application/json"]').click();
    await page.waitForURL(new RegExp(`/_api/detail/${listed.work.id}\\.json$`));
    expect(JSON.parse((await page.locator("body").textContent())!)).toMatchObject({
      id: listed.work.id,
      name: listed.work.name,
    });

    // Its director and its category.
    await page.goto(work);
    await page.locator('dd a[href*="director/"]').click();
    await page.waitForURL(new RegExp(`/director/${listed.director!.slug}/index\\.html$`));
    expect(await page.locator("h1").textContent()).toContain(listed.director!.name);
    expect(await badImages(page, d.media)).toEqual([]);
    await page.goto(work);
    await page.locator('dd a[href*="category/"]').click();
    await page.waitForURL(new RegExp(`/category/${listed.work.audiovisual_type}/index\\.html$`));
    expect((await cardTitles(page)).length).toBeGreaterThan(0);
    expect(await badImages(page, d.media)).toEqual([]);

    // Search, from the home page: a title that is not on it, opened from the results.
    await page.locator("header a.brand").click();
    await page.waitForURL(pathToFileURL(path.join(unpacked, d.home)).href);
    const box = page.locator("input#q");
    await expect.poll(() => box.isVisible()).toBe(true);
    const target = order.slice(20).findLast((l) => l.work.id < 8000 && l.work.id !== SCRIPT_ID)!;
    expect(await cardTitles(page)).not.toContain(target.work.name);
    // The index loads on first use only.
    expect(requests.filter(isIndex)).toEqual([]);
    await box.fill(target.work.name);
    const result = page.locator(
      `[data-results] .card a[href*="audiovisual-detail/${target.work.id}/"]`,
    );
    expect(await result.locator(".card-title").textContent()).toBe(target.work.name);
    await result.click();
    await page.waitForURL(
      new RegExp(`/audiovisual-detail/${target.work.id}/${target.work.slug}/index\\.html$`),
    );
    expect(await page.locator("h1").textContent()).toBe(target.work.name);

    // By director, typed without accents: every one of their works counted, the first page shown.
    await page.goBack();
    await box.fill("agnes VARDA");
    const count = view.domain.locale.startsWith("en")
      ? `${DIRECTOR.works} results`
      : `${DIRECTOR.works} resultados`;
    await expect.poll(() => live(page).textContent()).toBe(count);
    expect(await results(page).count()).toBe(20);
    for (const item of await results(page).allTextContents())
      expect(item).toMatch(new RegExp(`^Les glaneurs \\d+${DIRECTOR.name} · \\d+`));
    // The results' covers come from the copy's media (the static grid, hidden, may not have loaded its lazy ones).
    await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
    await page.waitForFunction(
      "[...document.querySelectorAll('[data-results] img')].every((i) => i.complete)",
    );
    const covers = await page.evaluate<[string, number][]>(
      "[...document.querySelectorAll('[data-results] img')].map((i) => [i.currentSrc || i.src, i.naturalWidth])",
    );
    expect(covers).toHaveLength(20);
    expect(covers.filter(([src, width]) => !(width > 0) || !src.includes(`/${d.media}`))).toEqual(
      [],
    );
    // A title written as markup is found and shown as text.
    await box.fill("quotes script");
    await expect
      .poll(() => results(page).locator(".card-title").allTextContents())
      .toEqual([SCRIPT_TITLE]);
    await box.fill("zzzz");
    await expect
      .poll(() => live(page).textContent())
      .toBe(
        view.domain.locale.startsWith("en")
          ? "No work found."
          : "No se ha encontrado ninguna obra.",
      );

    expect(problems).toEqual([]);
    expect(outside()).toEqual([]);
    // The pages, their images and the search index did come from the copy.
    expect(requests.filter((url) => url.includes(`/${d.media}`)).length).toBeGreaterThan(0);
    expect(requests.filter(isIndex).length).toBeGreaterThan(0);
  } finally {
    await context.close();
  }
}

describe.runIf(chromium !== null)(
  "an offline archive opened from file:// with the network off",
  () => {
    it("a whole-network .zip opens at a root index.html listing the domains, each browsable and searchable", async () => {
      const unpacked = await archive("network.zip");
      for (const d of DOMAINS) await browse(unpacked, d, true);
    }, 240_000);

    for (const d of DOMAINS) {
      it(`a one-domain .tar.gz of ${d.domain} (media in ${d.media}) opens at its home, browsable and searchable`, async () => {
        const unpacked = await archive(`${d.domain}.tar.gz`, d.domain);
        await browse(unpacked, d, false);
      }, 120_000);
    }

    it("served over HTTP (catalogue serve --dir), the same copy searches with the same index", async () => {
      const unpacked = await archive("served.tar.gz", "domain-2.example");
      const server = await startServer({ dir: unpacked, port: 0, host: "127.0.0.1" });
      const page = await browser.newPage();
      try {
        const problems: string[] = [];
        watch(page, problems);
        const requests: string[] = [];
        page.on("request", (r) => void requests.push(r.url()));
        await page.goto(server.url);
        const box = page.locator("input#q");
        await expect.poll(() => box.isVisible()).toBe(true);
        const target = views.get("domain-2.example")!.orders.name.at(-1)!;
        await box.fill(target.work.name);
        await page
          .locator(`[data-results] a[href*="audiovisual-detail/${target.work.id}/"]`)
          .waitFor({ timeout: 15_000 });
        expect(requests.some((url) => url.endsWith("/browse/search.js"))).toBe(true);
        expect(requests.some((url) => url.includes("/pagefind/"))).toBe(false);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
        await server.close();
      }
    });

    it("a copy whose search index is gone says so in the live region on the first search", async () => {
      const unpacked = await archive("no-index.tar.gz", "domain-2.example");
      await rm(path.join(unpacked, "domain-2.example/browse/search.js"));
      const { context, problems } = await offlineContext(unpacked);
      try {
        const page = await context.newPage();
        await page.goto(pathToFileURL(path.join(unpacked, "domain-2.example/index.html")).href);
        const box = page.locator("input#q");
        await expect.poll(() => box.isVisible()).toBe(true);
        await box.fill("luna");
        await expect.poll(() => live(page).textContent()).toBe("The filters could not be loaded.");
        // The missing file is reported, for whoever looks into it.
        expect(problems.some((p) => p.includes("search.js"))).toBe(true);
      } finally {
        await context.close();
      }
    });

    it("a published site opened from file:// searches its own index, with no error", async () => {
      const { context, problems } = await offlineContext(path.join(root.dir, ".."));
      try {
        const page = await context.newPage();
        await page.goto(pathToFileURL(path.join(dist, "domain-2.example/index.html")).href);
        await page.waitForLoadState("load");
        await page.locator("input#q").fill("agnes varda");
        await expect.poll(() => live(page).textContent()).toBe(`${DIRECTOR.works} results`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
