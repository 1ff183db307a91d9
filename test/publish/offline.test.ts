import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineHtml } from "../../src/publish/offline.ts";
import { buildFixture, CLI, generatedContent, tempDir } from "../helpers/catalogue.ts";

const run = promisify(execFile);
const CHROMIUM = "/usr/bin/chromium";
// In CI a missing browser is a failure, never a silent skip.
if (!existsSync(CHROMIUM) && process.env.CI === "true") throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);

describe("offline links", () => {
  it("points relative folder links at index.html and leaves every other link alone", () => {
    const html =
      '<a href="./">a</a> <a href="../../director/x/">b</a> <a href="page/2/#top">c</a> <a href="assets/style.css">d</a> ' +
      '<a href="https://x.example/y/">e</a> <a href="/root/">f</a> <a href="#main">g</a> <a href="../api/v1/videos/audiovisuals/5/">h</a>';
    expect(offlineHtml(html)).toBe(
      '<a href="./index.html">a</a> <a href="../../director/x/index.html">b</a> <a href="page/2/index.html#top">c</a> <a href="assets/style.css">d</a> ' +
        '<a href="https://x.example/y/">e</a> <a href="/root/">f</a> <a href="#main">g</a> <a href="../api/v1/videos/audiovisuals/5/">h</a>',
    );
  });
});

let root: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => (root = await tempDir("catalogue-offline-")));
afterAll(() => root?.cleanup());

describe.skipIf(!existsSync(CHROMIUM))("an unpacked archive", () => {
  it("opens and navigates from file://", async () => {
    const dist = path.join(root.dir, "dist");
    await buildFixture(await generatedContent(root.dir, { works: 45, domains: 2 }), dist, { site: true });
    const archive = path.join(root.dir, "copy.tar.gz");
    await run(process.execPath, [CLI, "publish", "--dir", dist, "--to", archive, "--domain", "domain-1.example"]);
    const unpacked = path.join(root.dir, "unpacked");
    await mkdir(unpacked);
    await run("tar", ["-xzf", archive, "-C", unpacked]);

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path.join(unpacked, "domain-1.example/index.html")).href);
      const first = page.locator("main a[href*='audiovisual-detail/']").first();
      const title = (await first.innerText()).split("\n")[0]!.trim();
      await first.click();
      await page.waitForLoadState();
      expect(page.url()).toMatch(/audiovisual-detail\/\d+\/[a-z0-9-]+\/index\.html$/);
      expect((await page.locator("h1").innerText()).trim()).toBe(title);
      // The cover, from the media folder inside the copy, is loaded.
      const cover = page.locator("main img").first();
      expect(await cover.evaluate((img) => { const image = img as unknown as { complete: boolean; naturalWidth: number }; return image.complete && image.naturalWidth > 0; })).toBe(true);
      // And back home through the header link.
      await page.locator("header a").first().click();
      await page.waitForLoadState();
      expect(page.url()).toMatch(/domain-1\.example\/index\.html$/);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
