import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReloadChannel } from "../../src/dev/reload.ts";
import { startServer, type RunningServer } from "../../src/serve/server.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { CHROMIUM } from "../helpers/chromium.ts";
import { requireTool } from "../support/requires.ts";
import { ask } from "./http.ts";

/**
 * The HTML catalogue under its own Content-Security-Policy, in Chromium: every page kind served
 * by `catalogue serve` (which sends the policy), the search used, `dev`'s reload script and its
 * problem box, and an offline archive. Any `securitypolicyviolation` event or console report of
 * a refused resource fails the test. Host names resolve to the loopback server (Chromium's
 * host-resolver rules), so the pages run at their own origins, media on another host included.
 */

const run = promisify(execFile);
const hasChromium =
  requireTool(CHROMIUM, "the site's tests under its Content-Security-Policy in Chromium") !== null;

let temp: { dir: string; cleanup: () => Promise<void> };
let dist: string;
let server: RunningServer;
let dev: RunningServer;
let browser: Browser;
/** The video host the own pages embed (any host ending in video.example). */
let video: Server;
const buildWarnings: string[] = [];

/** What went wrong in any page: policy violations, console errors, script errors, failed loads. */
const problems: string[] = [];

beforeAll(async () => {
  temp = await tempDir("catalogue-csp-");
  const content = await generatedContent(temp.dir, { works: 60, domains: 2 });
  const domains = path.join(content, "domains.csv");
  const csv = await readFile(domains, "utf8");
  // domain-1: covers on a host of their own; domain-2: https, under a base path.
  await writeFile(
    domains,
    csv
      .replace(
        "domain-1.example,Red de bibliotecas 1,,",
        "domain-1.example,Red de bibliotecas 1,http://domain-1.example,http://media.example/covers",
      )
      .replace(
        "domain-2.example,Red de bibliotecas 2,,",
        "domain-2.example,Red de bibliotecas 2,https://domain-2.example/cataleg,",
      ),
  );
  // The library's own pages embed a video player: one host allowed in site/content-security.json, one not.
  const site = path.join(temp.dir, "site");
  await mkdir(path.join(site, "pages"), { recursive: true });
  await writeFile(
    path.join(site, "content-security.json"),
    '{\n  "frame-src": ["http://video.example"]\n}\n',
  );
  await writeFile(
    path.join(site, "pages", "tour.md"),
    '---\ntitle: Tour\n---\n<iframe src="http://video.example/embed/1" title="Tour"></iframe>\n',
  );
  await writeFile(
    path.join(site, "pages", "elsewhere.md"),
    '---\ntitle: Elsewhere\n---\nA video:\n<iframe src="http://other-video.example/embed/2" title="Elsewhere"></iframe>\n',
  );
  video = createServer((_request, response) =>
    response
      .writeHead(200, { "Content-Type": "text/html" })
      .end("<!doctype html><title>Player</title><p>Playing</p>\n"),
  );
  await new Promise<void>((resolve) => video.listen(0, "127.0.0.1", resolve));
  dist = path.join(temp.dir, "dist");
  await buildFixture(content, dist, {
    site: true,
    reporter: {
      stage: () => {},
      warning: (w) =>
        buildWarnings.push(`${path.relative(temp.dir, w.file)}:${w.line}: ${w.message}`),
    },
  });
  server = await startServer({ dir: dist, port: 0, host: "127.0.0.1" });
  const channel = new ReloadChannel({
    build: "1",
    problems: ["content/audiovisuals.csv:3: 2: name is empty"],
  });
  dev = await startServer({ dir: dist, port: 0, host: "127.0.0.1", dev: channel });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      // Every *.example host is the server under test; the dev server answers on dev.example.
      `--host-resolver-rules=MAP dev.example 127.0.0.1:${new URL(dev.url).port}, MAP *video.example 127.0.0.1:${(video.address() as AddressInfo).port}, MAP *.example 127.0.0.1:${new URL(server.url).port}`,
    ],
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dev?.close();
  video?.close();
  await temp?.cleanup();
});

/** A page that records violations (from its first script on) and every error. */
async function open(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) => {
      (window.violations ??= []).push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " (" + e.sourceFile + ":" + e.lineNumber + ")");
    });`,
  });
  // The 404 page's own status is reported on the console: expected there, and only there.
  const expected404 = (text: string) =>
    page.url().includes("no-such-page") && text.includes("status of 404");
  page.on(
    "console",
    (m) =>
      void (
        m.type() === "error" &&
        !expected404(m.text()) &&
        problems.push(`console: ${m.text()} (${page.url()})`)
      ),
  );
  page.on("pageerror", (e) => problems.push(`script: ${e.message} (${page.url()})`));
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
    (r) =>
      void (
        r.status() >= 400 &&
        !r.url().includes("no-such-page") &&
        problems.push(`${r.status()}: ${r.url()}`)
      ),
  );
  await page.goto(url);
  return page;
}

/** The page's violations so far, after its images have loaded. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
  // Polled from outside: the policy refuses the eval a waitForFunction string needs.
  await expect
    .poll(() => page.evaluate("[...document.images].every((i) => i.complete)"), { timeout: 15_000 })
    .toBe(true);
  const found = (await page.evaluate<string[]>("window.violations ?? []")).map(
    (v) => `${v} on ${page.url()}`,
  );
  return found;
}

/** The first link of the page whose path matches. */
async function linkTo(page: Page, pattern: RegExp): Promise<string> {
  const hrefs = await page.evaluate<string[]>(
    "[...document.querySelectorAll('a[href]')].map((a) => a.href)",
  );
  const href = hrefs.find((h) => pattern.test(new URL(h).pathname));
  if (href === undefined) throw new Error(`no link matching ${pattern} on ${page.url()}`);
  return href;
}

describe.runIf(hasChromium)("the site under its Content-Security-Policy", () => {
  it("sends the policy on pages, and every page kind runs under it without a violation", async () => {
    const found: string[] = [];
    for (const home of ["http://domain-1.example/", "http://domain-2.example/cataleg/"]) {
      const page = await open(home);
      const url = new URL(home);
      const response = await ask(Number(new URL(server.url).port), {
        host: url.host,
        path: url.pathname,
      });
      expect(response.headers["content-security-policy"]).toMatch(/default-src 'none'/);
      found.push(...(await violations(page)));
      const targets = [
        await linkTo(page, /\/audiovisual-detail\/\d+\//),
        await linkTo(page, /\/category\//),
        await linkTo(page, /\/page\/2\/$|\/2\/$/),
      ];
      await page.goto(targets[0]!);
      targets.push(await linkTo(page, /\/director\//));
      for (const target of targets) {
        await page.goto(target);
        found.push(...(await violations(page)));
      }
      await page.goto(new URL("no-such-page/", home).href);
      found.push(...(await violations(page)));
      await page.close();
    }
    expect(found).toEqual([]);
    // Covers on the media host were loaded under the policy (img-src names that host).
    const page = await open("http://domain-1.example/");
    const covers = await page.evaluate<string[]>(
      "[...document.images].map((i) => i.currentSrc || i.src)",
    );
    expect(covers.some((src) => src.startsWith("http://media.example/covers/"))).toBe(true);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("searches with the site's own index without a violation", async () => {
    const page = await open("http://domain-1.example/");
    const box = page.locator("input#q");
    await expect.poll(() => box.isVisible()).toBe(true);
    const title = (await page.locator(".cards .card-title").first().textContent())!;
    await box.fill(title);
    await page
      .locator("[data-results] .card a", { hasText: title })
      .first()
      .waitFor({ timeout: 15_000 });
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("runs dev's reload script and shows its problem box without a violation", async () => {
    const page = await open("http://dev.example/");
    await page.locator("#catalogue-dev-problems").waitFor({ timeout: 10_000 });
    expect(
      await page.evaluate(
        "getComputedStyle(document.getElementById('catalogue-dev-problems')).position",
      ),
    ).toBe("fixed");
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("opens an offline archive with the policy in force, its offline search included", async () => {
    const file = path.join(temp.dir, "site.tar.gz");
    const published = await catalogue(
      ["publish", "--dir", dist, "--to", file, "--domain", "domain-2.example"],
      { inherit: true },
    );
    expect(published.code, published.stderr).toBe(0);
    const unpacked = `${file}.d`;
    await mkdir(unpacked);
    await run("tar", ["-xzf", file, "-C", unpacked]);
    // file:// carries no headers: the policy goes into each page as a <meta> (frame-ancestors,
    // which a <meta> cannot carry, aside).
    const served = await ask(Number(new URL(server.url).port), {
      host: "domain-2.example",
      path: "/cataleg/",
    });
    const policy = String(served.headers["content-security-policy"]);
    const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/;\s*frame-ancestors[^;]*/, "")}">`;
    const pages = (await readdir(unpacked, { recursive: true })).filter((f) => f.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(10);
    for (const rel of pages) {
      const html = await readFile(path.join(unpacked, rel), "utf8");
      await writeFile(path.join(unpacked, rel), html.replace(/<head>/i, `<head>${meta}`));
    }
    const home = pages.find((p) => p.endsWith("cataleg/index.html"))!;
    const page = await open(pathToFileURL(path.join(unpacked, home)).href);
    expect(await page.locator("meta[http-equiv]").count()).toBe(1);
    const box = page.locator("input#q");
    await expect.poll(() => box.isVisible()).toBe(true);
    const title = (await page.locator(".cards .card-title").first().textContent())!;
    await box.fill(title);
    await page
      .locator("[data-results] .card a", { hasText: title })
      .first()
      .waitFor({ timeout: 15_000 });
    const found = await violations(page);
    await page.locator("[data-results] .card a", { hasText: title }).first().click();
    await page.waitForLoadState();
    found.push(...(await violations(page)));
    expect(found).toEqual([]);
    await page.close();
  });

  it("runs what the library allowed in site/content-security.json, and what it did not is blocked and was warned of", async () => {
    const page = await open("http://domain-1.example/tour/");
    await expect
      .poll(() => page.frames().some((f) => f.url() === "http://video.example/embed/1"))
      .toBe(true);
    await expect
      .poll(() =>
        page
          .frames()
          .find((f) => f.url() === "http://video.example/embed/1")
          ?.locator("p")
          .textContent(),
      )
      .toBe("Playing");
    expect(await violations(page)).toEqual([]);
    await page.close();

    // Not allowed: the build said so, with the line and the fix, and the browser blocks it.
    expect(buildWarnings).toEqual([
      `site/pages/elsewhere.md:5: <iframe src="http://other-video.example/embed/2"> is blocked by the pages' Content-Security-Policy: add "http://other-video.example" to "frame-src" in ${path.join(temp.dir, "site", "content-security.json")}`,
    ]);
    const blocked = await browser.newPage();
    await blocked.addInitScript({
      content: `document.addEventListener("securitypolicyviolation", (e) => (window.violations ??= []).push(e.effectiveDirective + " " + e.blockedURI));`,
    });
    await blocked.goto("http://domain-1.example/elsewhere/");
    await expect
      .poll(() => blocked.evaluate("window.violations ?? []"))
      .toEqual(["frame-src http://other-video.example"]); // a cross-origin URL is reported by its origin
    await blocked.close();
  });

  it("saw no console error, script error or failed request", () => {
    expect(problems).toEqual([]);
  });
});
