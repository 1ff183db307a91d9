import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { CHROMIUM, launchChromium } from "../helpers/chromium.ts";
import { requireTool } from "../support/requires.ts";
import { startCatalogue, type RunningCommand } from "../support/command.ts";
import {
  browseContent,
  expectedWorks,
  shownTitle,
  versionOrder,
  type Expected,
} from "./browse-fixture.ts";

/**
 * The shelf for a library's own website: each version's feed.json against the contract's formulas
 * over the CSV rows (new: newest first; leaving: soonest first; a work in both once; titles in the
 * version's language), and `<catalogue-shelf>` on a page of another origin under a strict policy,
 * reading the feed served by `catalogue serve` with CORS.
 */

const chromium = requireTool(CHROMIUM, "the shelf's tests in Chromium");

interface Feed {
  version: string;
  language: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  _catalogue: { texts: Record<string, string>; versions: Record<string, string> };
  items: {
    id: string;
    url: string;
    title: string;
    image?: string;
    date_published: string;
    tags: string[];
    _catalogue: { new: boolean; leaving: boolean; available_until: string | null };
  }[];
}

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;
let expected: Expected[];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-shelf-"));
  content = await browseContent(dir);
  out = path.join(dir, "out");
  await buildFixture(content, out, { site: true });
  expected = await expectedWorks(content, "domain-1.example");
}, 240_000);

afterAll(async () => {
  await cleanup?.();
});

const readFeed = async (rel: string) =>
  JSON.parse(await readFile(path.join(out, rel), "utf8")) as Feed;

/** The feed's works by the formulas: new ones newest first, then leaving ones soonest first, each once. */
function shelfOf(works: Expected[]): Expected[] {
  const stable = (list: Expected[], key: (w: Expected) => string, sign: number) =>
    list
      .map((w, i) => ({ w, i }))
      .sort((a, b) => sign * key(a.w).localeCompare(key(b.w)) || a.i - b.i)
      .map(({ w }) => w);
  const newest = stable(
    works.filter((w) => w.isNew),
    (w) => w.from,
    -1,
  ).slice(0, 50);
  const leaving = stable(
    works.filter((w) => w.isLeaving),
    (w) => w.until!,
    1,
  ).slice(0, 50);
  return [...new Set([...newest, ...leaving])];
}

describe("feed.json", () => {
  it("holds the new and the leaving works of each version, in order, titled in its language", async () => {
    expect(shelfOf(expected).some((w) => w.isNew && w.isLeaving)).toBe(true);
    for (const [rel, lang] of [
      ["domain-1.example/feed.json", "es"],
      ["domain-1.example/en/feed.json", "en"],
      ["domain-1.example/ca/feed.json", "ca"],
    ] as const) {
      // Works of the same day in the order of the titles the version shows.
      const want = shelfOf(versionOrder(expected, lang));
      const feed = await readFeed(rel);
      expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
      expect(feed.language).toBe(lang);
      expect(feed.feed_url).toBe(`https://${rel}`);
      expect(feed.items.map((i) => i.id)).toEqual(
        want.map((w) => `https://domain-1.example/api/v1/videos/audiovisuals/${w.id}/`),
      );
      expect(feed.items.map((i) => i.title)).toEqual(want.map((w) => shownTitle(w, lang)));
      expect(feed.items.map((i) => i.tags)).toEqual(
        want.map((w) => [...(w.isNew ? ["new"] : []), ...(w.isLeaving ? ["leaving"] : [])]),
      );
      expect(feed.items.map((i) => i._catalogue.available_until)).toEqual(want.map((w) => w.until));
      for (const item of feed.items) {
        expect(item.url).toMatch(/^https:\/\/domain-1\.example\/(en\/|ca\/)?audiovisual-detail\//);
        expect(item.image).toMatch(/^https:\/\/domain-1\.example\/media\/.+\.jpeg$/);
      }
      const versions = Object.entries(feed._catalogue.versions).map(([tag, href]) => [
        tag,
        new URL(href, `https://${rel}`).href,
      ]);
      expect(versions).toEqual([
        ["es", "https://domain-1.example/feed.json"],
        ["en", "https://domain-1.example/en/feed.json"],
        ["ca", "https://domain-1.example/ca/feed.json"],
      ]);
    }
    // A domain where nothing leaves (leaving_days 0) still has its new works.
    const other = await readFeed("domain-2.example/cataleg/feed.json");
    expect(other.items.every((i) => !i._catalogue.leaving)).toBe(true);
  });

  it("is linked from every page's head, and the shelf's module is in the locale's assets only", async () => {
    const home = await readFile(path.join(out, "domain-1.example/en/index.html"), "utf8");
    expect(home).toMatch(
      /<link rel="alternate" type="application\/feed\+json" title="New arrivals and leaving soon · Red 1" href="(\.\/)?feed\.json">/,
    );
    await readFile(path.join(out, "domain-1.example/assets/shelf.js"), "utf8");
    await expect(readFile(path.join(out, "domain-1.example/en/assets/shelf.js"))).rejects.toThrow();
  });
});

describe.runIf(chromium !== null)("<catalogue-shelf> on another site's page", () => {
  let browser: Browser;
  let serve: RunningCommand;
  let catalogueOrigin: string;
  let host: Server;
  let hostOrigin: string;
  const violations: string[] = [];

  beforeAll(async () => {
    serve = startCatalogue(["serve", "--dir", out, "--port", "0"], { inherit: true });
    const [, url] = await serve.waitFor(/on (http:\/\/127\.0\.0\.1:\d+)\//);
    catalogueOrigin = url!;
    // The library's page: another origin, a strict policy (nothing inline, no frame, no style).
    host = createServer((req, res) => {
      const feed = req.url?.startsWith("/missing") ? "no-such-feed.json" : "feed.json";
      const lang = req.url?.includes("lang=ca") ? "ca" : "en";
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": `default-src 'none'; script-src ${catalogueOrigin}; connect-src ${catalogueOrigin}; img-src ${catalogueOrigin} https://domain-1.example; style-src 'none'; frame-ancestors 'none'`,
      });
      res.end(`<!doctype html><html lang="${lang}"><head><title>Library</title></head><body>
<main><h1>Our library</h1>
<catalogue-shelf src="${catalogueOrigin}/${feed}" show="all" limit="5"><a id="fallback" href="${catalogueOrigin}/new/">New in the catalogue</a></catalogue-shelf>
</main><script type="module" src="${catalogueOrigin}/assets/shelf.js"></script></body></html>`);
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
    await serve?.stop("SIGTERM");
  });

  async function open(pathAndQuery: string) {
    const page = await browser.newPage();
    // Loopback only: the feed's covers are on the domain's public host, never asked for.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
    await page.addInitScript(
      `document.addEventListener("securitypolicyviolation", (e) => window.reportViolation(e.effectiveDirective + " " + e.blockedURI));`,
    );
    await page.goto(`${hostOrigin}${pathAndQuery}`);
    return page;
  }

  it("shows the feed's works in the page's language, with no policy violation", async () => {
    const page = await open("/?lang=en");
    const titles = page.locator("catalogue-shelf").locator('[part="title"]');
    await titles.first().waitFor();
    // The page is in English: the English version's feed, read through the versions the feed names.
    const want = shelfOf(versionOrder(expected, "en"))
      .slice(0, 5)
      .map((w) => shownTitle(w, "en"));
    expect(await titles.allTextContents()).toEqual(want);
    const links = await page.evaluate<string[]>(
      `[...document.querySelector("catalogue-shelf").shadowRoot.querySelectorAll('[part="link"]')].map((a) => a.href)`,
    );
    expect(links).toHaveLength(5);
    expect(links.every((href) => href.startsWith("https://domain-1.example/en/"))).toBe(true);
    // Styled under style-src 'none' (a constructed stylesheet): the row is a flex row.
    const display = await page.evaluate<string>(
      `getComputedStyle(document.querySelector("catalogue-shelf").shadowRoot.querySelector('[part="list"]')).display`,
    );
    expect(display).toBe("flex");
    expect(violations).toEqual([]);
    await page.close();
  });

  it("reads the Catalan version's feed on a Catalan page", async () => {
    const page = await open("/?lang=ca");
    const titles = page.locator("catalogue-shelf").locator('[part="title"]');
    await titles.first().waitFor();
    expect(await titles.allTextContents()).toEqual(
      shelfOf(versionOrder(expected, "ca"))
        .slice(0, 5)
        .map((w) => shownTitle(w, "ca")),
    );
    await page.close();
  });

  it("keeps its own link when the feed cannot be read", async () => {
    const page = await open("/missing");
    await page.waitForFunction(`customElements.get("catalogue-shelf") !== undefined`);
    await page.waitForTimeout(300);
    expect(await page.locator("#fallback").isVisible()).toBe(true);
    expect(await page.locator("catalogue-shelf").locator('[part="title"]').count()).toBe(0);
    await page.close();
  });
});
