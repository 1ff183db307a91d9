import { CHROMIUM, launchChromium } from "../helpers/chromium.ts";
import { requireTool } from "../support/requires.ts";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import type { Ordering } from "../../src/content/schema.ts";
import { domainView, type DomainView } from "../../src/model/domain-view.ts";
import { ROOT, tempDir } from "../helpers/catalogue.ts";
import { buildSite, SCRIPT_ID, SCRIPT_TITLE, serveFolder, siteContent } from "./fixture.ts";

// In CI a missing browser is a failure, never a silent skip.
const run = describe.runIf(
  requireTool(CHROMIUM, "the tests of the HTML catalogue in Chromium") !== null,
);

let cleanup: () => Promise<void>;
let server: { url: string; close: () => Promise<void> };
let browser: Browser;
let view: DomainView;
/** The second domain, served under its base path /cataleg. */
let second: { view: DomainView; server: { url: string; close: () => Promise<void> } };
/** Everything that went wrong in any page: console errors, script errors, failed requests. */
const problems: string[] = [];

beforeAll(async () => {
  const temp = await tempDir("catalogue-site-browser-");
  cleanup = temp.cleanup;
  const content = await siteContent(temp.dir);
  await watchAndSynopses(content);
  const out = path.join(temp.dir, "out");
  await buildSite(content, out);
  const catalogue = await loadCatalogue(content, () => {});
  view = domainView(catalogue, catalogue.domains[0]!, "2026-11-20");
  server = await serveFolder(path.join(out, "domain-1.example"));
  second = {
    view: domainView(catalogue, catalogue.domains[1]!, "2026-11-20"),
    server: await serveFolder(path.join(out, "domain-2.example"), "/cataleg"),
  };
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await second?.server.close();
  await cleanup?.();
});

/** The first domain links its works to a lending platform; every work has a Spanish synopsis. */
async function watchAndSynopses(content: string) {
  const append = async (
    file: string,
    header: string,
    cell: (line: string, i: number) => string,
  ) => {
    const lines = (await readFile(path.join(content, file), "utf8")).split("\n");
    await writeFile(
      path.join(content, file),
      lines
        .map((line, i) =>
          line === "" ? line : i === 0 ? `${line},${header}` : `${line},${cell(line, i)}`,
        )
        .join("\n"),
    );
  };
  await append("domains.csv", "watch_url", (line) =>
    line.startsWith("domain-1.example,") ? WATCH : "",
  );
  await append(
    "audiovisuals.csv",
    "synopsis_es",
    (line) => `Sinopsis de la obra ${line.split(",")[0]}. Una segunda frase la completa.`,
  );
}
const WATCH = "https://films.example.org/obra/{id}/{slug}";

async function open(url: string, on = server): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on(
    "console",
    (m) => void (m.type() === "error" && problems.push(`console: ${m.text()} (${page.url()})`)),
  );
  page.on("pageerror", (e) => problems.push(`script: ${e.message} (${page.url()})`));
  page.on("dialog", (d) => problems.push(`dialog: ${d.message()} (${page.url()})`));
  // A request cancelled because the page navigated away or closed (a cover still loading when a
  // search result is clicked) is not a failure; a missing file is, and answers 404 (below).
  page.on(
    "requestfailed",
    (r) =>
      void (
        r.failure()?.errorText !== "net::ERR_ABORTED" &&
        problems.push(`failed: ${r.url()} (${r.failure()?.errorText})`)
      ),
  );
  page.on(
    "response",
    (r) => void (r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`)),
  );
  await page.goto(on.url + url);
  return page;
}

const cardTitles = (page: Page) => page.locator(".cards .card-title").allTextContents();
const names = (ordering: Ordering, from = 0) =>
  view.orders[ordering].slice(from, from + 20).map((l) => l.work.name);

/** Scrolls through the page so lazy images load, then lists the images that did not. */
async function brokenImages(page: Page): Promise<string[]> {
  await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
  await page.waitForFunction("[...document.images].every((i) => i.complete)");
  return page.evaluate<string[]>(
    "[...document.images].filter((i) => !(i.naturalWidth > 0)).map((i) => i.currentSrc || i.src)",
  );
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({
    content: await readFile(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8"),
  });
  const result = await page.evaluate<{
    violations: { id: string; impact: string; nodes: unknown[] }[];
  }>("axe.run(document, { resultTypes: ['violations'] })");
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.nodes.length})`);
}

run("the HTML catalogue in a browser", () => {
  it("lists the first 20 works in the default ordering with their covers loaded", async () => {
    const page = await open("/");
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    expect(await cardTitles(page)).toEqual(names("name"));
    expect(await brokenImages(page)).toEqual([]);
    expect(await page.locator(".cards img").count()).toBe(20);
    await mkdir(path.join(ROOT, "test-results"), { recursive: true });
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: path.join(ROOT, "test-results/site-home.png"), fullPage: false });
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it("pages forward and back with rel=next and rel=prev", async () => {
    const page = await open("/");
    await page.click('a[rel="next"]');
    await page.waitForURL(/\/page\/2\/$/);
    expect(await cardTitles(page)).toEqual(names("name", 20));
    await page.click('a[rel="prev"]');
    await page.waitForURL(`${server.url}/`);
    expect(await cardTitles(page)).toEqual(names("name"));
    await page.close();
  });

  it("switches between the four orderings", async () => {
    const page = await open("/");
    for (const ordering of ["-name", "year", "-year", "name"] as const) {
      await page
        .locator(".orderings a")
        .nth(["name", "-name", "year", "-year"].indexOf(ordering))
        .click();
      await page.waitForLoadState();
      expect(await page.locator('.orderings [aria-current="page"]').count()).toBe(1);
      expect(await cardTitles(page), ordering).toEqual(names(ordering));
      expect(await brokenImages(page)).toEqual([]);
    }
    await page.close();
  });

  it("shows a work with one h1, its cover, director, category, dates and its JSON link, then its director", async () => {
    const listed = view.orders.name.find(
      (l) => l.director !== null && l.work.year !== null && l.work.audiovisual_type !== null,
    )!;
    const page = await open("/");
    const index = view.orders.name.indexOf(listed);
    if (index >= 20)
      await page.goto(`${server.url}/audiovisual-detail/${listed.work.id}/${listed.work.slug}/`);
    else await page.locator(".cards a").nth(index).click();
    await page.waitForURL(
      new RegExp(`/audiovisual-detail/${listed.work.id}/${listed.work.slug}/$`),
    );
    expect(await page.locator("h1").allTextContents()).toEqual([listed.work.name]);
    expect(await page.locator(".facts").textContent()).toContain(String(listed.work.year));
    expect(await brokenImages(page)).toEqual([]);
    const json = await page.locator('a[type="application/json"]').getAttribute("href");
    expect(new URL(json!, page.url()).pathname).toBe(
      `/api/v1/videos/audiovisuals/${listed.work.id}/`,
    );
    expect(await page.locator("time").first().getAttribute("datetime")).toBe(listed.window.from);
    // The link to watch or borrow: in the first screen, beside the facts; the synopsis below.
    const watch = page.locator(".facts .watch a");
    expect(await watch.getAttribute("href")).toBe(
      WATCH.replace("{id}", String(listed.work.id)).replace("{slug}", listed.work.slug),
    );
    const box = (await watch.boundingBox())!;
    expect(box.y + box.height).toBeLessThan(900);
    expect(await page.locator(".synopsis p").first().textContent()).toBe(
      `Sinopsis de la obra ${listed.work.id}. Una segunda frase la completa.`,
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator(".facts a", { hasText: listed.director!.name }).click();
    await page.waitForURL(new RegExp(`/director/${listed.director!.slug}/$`));
    expect(await page.locator("h1").allTextContents()).toEqual([listed.director!.name]);
    const theirs = view.orders.name
      .filter((l) => l.director?.id === listed.director!.id)
      .map((l) => l.work.name);
    expect(await cardTitles(page)).toEqual(theirs);
    expect(await page.locator(".bio p").first().getAttribute("lang")).toBeNull(); // Spanish text on a Spanish page
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it("finds a work by its title with the search box, from the site's own index, and opens it", async () => {
    const page = await open("/");
    const box = page.locator("input#q");
    await expect.poll(() => box.isVisible()).toBe(true);
    // No other search index is written.
    expect((await fetch(`${server.url}/pagefind/pagefind.js`)).status).toBe(404);
    // Works of every residue of their id: they are spread over the index's card files.
    const fromEachPart = [1, 2, 3, 0].map((part) =>
      view.orders.name.find((l) => l.work.id % 4 === part && l.work.id !== SCRIPT_ID)!,
    );
    for (const listed of fromEachPart) {
      await box.fill(listed.work.name);
      await page
        .locator("[data-results] .card a", { hasText: listed.work.name })
        .first()
        .waitFor({ timeout: 15_000 });
    }
    // What the page loaded to answer: the browse index's scripts, nothing of another index.
    const requested = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname),
    );
    expect(requested.some((p) => p.startsWith("/browse/"))).toBe(true);
    expect(requested.filter((p) => p.includes("pagefind"))).toEqual([]);
    const target = fromEachPart.at(-1)!;
    const result = page.locator("[data-results] .card a", { hasText: target.work.name }).first();
    await result.click();
    await page.waitForURL(new RegExp(`/audiovisual-detail/${target.work.id}/`));
    expect(await page.locator("h1").textContent()).toBe(target.work.name);
    await page.close();
  });

  it("finds works with the search box of a site under a base path, and opens them there", async () => {
    const page = await open("/cataleg/", second.server);
    const box = page.locator("input#q");
    await expect.poll(() => box.isVisible()).toBe(true);
    const fromEachPart = [0, 1, 2, 3].map((part) =>
      second.view.orders.name.find((l) => l.work.id % 4 === part && l.work.id !== SCRIPT_ID)!,
    );
    for (const listed of fromEachPart) {
      await box.fill(listed.work.name);
      await page
        .locator("[data-results] .card a", { hasText: listed.work.name })
        .first()
        .waitFor({ timeout: 15_000 });
    }
    const target = fromEachPart.at(-1)!;
    await page.locator("[data-results] .card a", { hasText: target.work.name }).first().click();
    await page.waitForURL(new RegExp(`/cataleg/audiovisual-detail/${target.work.id}/`));
    expect(await page.locator("h1").textContent()).toBe(target.work.name);
    await page.close();
  });

  it("shows a title written as markup as text, in the listing and on its page", async () => {
    const page = await open(`/audiovisual-detail/${SCRIPT_ID}/script-title/`);
    expect(await page.locator("h1").textContent()).toBe(SCRIPT_TITLE);
    expect(await page.title()).toContain(SCRIPT_TITLE);
    await page.goto(`${server.url}/category/peliculas/`);
    expect(await cardTitles(page)).toContain(SCRIPT_TITLE);
    await page.close();
  });

  it("answers unknown paths with the 404 page, styled", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/no/such/page/`);
    expect(response?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Página no encontrada");
    expect(await page.evaluate("getComputedStyle(document.body).maxWidth")).not.toBe("none");
    await page.close();
  });

  it("saw no console error, script error, dialog or failed request", () => {
    expect(problems).toEqual([]);
  });
});
