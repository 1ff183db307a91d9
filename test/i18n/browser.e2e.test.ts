import { CHROMIUM, launchChromium } from "../helpers/chromium.ts";
import { execFile } from "node:child_process";
import { requireTool } from "../support/requires.ts";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView, type DomainView } from "../../src/model/domain-view.ts";
import { buildFixture, generatedContent, ROOT, tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { serveFolder } from "../site/fixture.ts";

/**
 * A domain in three languages in Chromium (locale `ca`, `languages` `es va`): the switcher leads
 * to the same work in the other language and back, search in each language finds a work and
 * opens it in that language, axe finds nothing serious, and the offline copy's switcher and
 * search work from file://.
 */

// In CI a missing browser is a failure, never a silent skip.
const hasChromium = requireTool(CHROMIUM, "the multilingual site's tests in Chromium") !== null;
const run = describe.runIf(hasChromium);
const exec = promisify(execFile);

let temp: { dir: string; cleanup: () => Promise<void> };
let dist: string;
let server: { url: string; close: () => Promise<void> };
let browser: Browser;
let view: DomainView;
const problems: string[] = [];

const VERSIONS = [
  { prefix: "", lang: "ca" },
  { prefix: "es/", lang: "es" },
  { prefix: "va/", lang: "ca-valencia" },
];

beforeAll(async () => {
  temp = await tempDir("catalogue-i18n-browser-");
  const content = await generatedContent(temp.dir, { works: 40, domains: 1 });
  const file = path.join(content, "domains.csv");
  const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
  lines[0] += ",languages";
  lines[1] = `${lines[1]!.replace(",es,", ",ca,")},es va`;
  await writeFile(file, lines.join("\n") + "\n");
  dist = path.join(temp.dir, "dist");
  await buildFixture(content, dist, { site: true });
  const catalogue = await loadCatalogue(content, () => {});
  view = domainView(catalogue, catalogue.domains[0]!, "2026-11-20");
  server = await serveFolder(path.join(dist, "domain-1.example"));
  if (hasChromium) browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await temp?.cleanup();
});

function watch(page: Page) {
  page.on(
    "console",
    (m) => void (m.type() === "error" && problems.push(`console: ${m.text()} (${page.url()})`)),
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
    (r) => void (r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`)),
  );
}

async function open(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  watch(page);
  await page.goto(url);
  return page;
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

run("a domain in three languages in a browser", () => {
  it("leads from a work to the same work in each other language, and back", async () => {
    const { work } = view.orders.name.find((l) => l.director !== null)!;
    const dir = `audiovisual-detail/${work.id}/${work.slug}/`;
    const page = await open(`${server.url}/${dir}`);
    for (const v of [...VERSIONS.slice(1), VERSIONS[0]!]) {
      await page.locator(`nav.languages a[lang="${v.lang}"]`).click();
      await page.waitForURL(`${server.url}/${v.prefix}${dir}`);
      expect(await page.locator("html").getAttribute("lang")).toBe(v.lang);
      expect(await page.locator("h1").textContent()).toBe(work.name);
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it("finds a work with the search box in each language and opens it in that language", async () => {
    const target = view.orders.name[7]!;
    for (const v of VERSIONS) {
      const page = await open(`${server.url}/${v.prefix}`);
      const box = page.locator("input#q");
      await expect.poll(() => box.isVisible()).toBe(true);
      await box.fill(target.work.name);
      await page.locator("[data-results] .card a", { hasText: target.work.name }).first().click();
      await page.waitForURL(
        `${server.url}/${v.prefix}audiovisual-detail/${target.work.id}/${target.work.slug}/`,
      );
      expect(await page.locator("html").getAttribute("lang")).toBe(v.lang);
      await page.close();
    }
    expect(problems).toEqual([]);
  });

  it("has no serious accessibility violation in any language, switcher included", async () => {
    const listed = view.orders.name.find((l) => l.director !== null)!;
    for (const v of VERSIONS) {
      for (const dir of [
        "",
        `audiovisual-detail/${listed.work.id}/${listed.work.slug}/`,
        `director/${listed.director!.slug}/`,
      ]) {
        const page = await open(`${server.url}/${v.prefix}${dir}`);
        expect(await seriousViolations(page), `${v.prefix}${dir}`).toEqual([]);
        await page.close();
      }
    }
  });

  it("switches language and searches in the offline copy, from file://", async () => {
    const archive = path.join(temp.dir, "copy.tar.gz");
    const published = await catalogue(["publish", "--dir", dist, "--to", archive], {
      inherit: true,
    });
    expect(published.code, published.stderr).toBe(0);
    const unpacked = `${archive}.d`;
    await mkdir(unpacked);
    await exec("tar", ["-xzf", archive, "-C", unpacked]);
    const context = await browser.newContext();
    await context.setOffline(true);
    const page = await context.newPage();
    watch(page);
    const home = (prefix: string) =>
      pathToFileURL(path.join(unpacked, "domain-1.example", prefix, "index.html")).href;
    await page.goto(home("va/"));
    await page.locator('nav.languages a[lang="es"]').click();
    await page.waitForURL(home("es/"));
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    const target = view.orders.name[3]!;
    const box = page.locator("input#q");
    await expect.poll(() => box.isVisible()).toBe(true);
    await box.fill(target.work.name);
    await page.locator("[data-results] .card a", { hasText: target.work.name }).first().click();
    await page.waitForURL(
      pathToFileURL(
        path.join(
          unpacked,
          "domain-1.example/es",
          `audiovisual-detail/${target.work.id}/${target.work.slug}/index.html`,
        ),
      ).href,
    );
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    await context.close();
    expect(problems).toEqual([]);
  });
});
