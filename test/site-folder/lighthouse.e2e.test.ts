import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/serve/server.ts";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { cli } from "../reliability/helpers.ts";
import { CHROMIUM, launchBrowser, type Browser } from "../site/lighthouse.ts";
import { requireTool } from "../support/requires.ts";

/**
 * Lighthouse on the site `catalogue init` makes with its example site/ put to use (the example
 * header renamed into place, a logo and a theme colour in domains.csv): SEO 100 and accessibility
 * 100 on a home, work, director, category and own page, as the issue of the library's own look
 * asks of the example it gives.
 */

const run = describe.runIf(requireTool(CHROMIUM, "the Lighthouse audits") !== null);

const HOST = "llevant.localhost";
let cleanup: () => Promise<void>;
let server: RunningServer;
let browser: Browser;
let site: string;
let out: string;

beforeAll(async () => {
  const temp = await tempDir("catalogue-look-lighthouse-");
  cleanup = temp.cleanup;
  const project = temp.dir;
  expect((await cli(["init"], { cwd: project })).code).toBe(0);
  const content = path.join(project, "content");
  for (const file of ["domains.csv", "availability.csv"]) {
    const csv = path.join(content, file);
    await writeFile(
      csv,
      (await readFile(csv, "utf8")).replaceAll("biblioteques-llevant.example", HOST),
    );
  }
  const domains = path.join(content, "domains.csv");
  const [head, north, ...rest] = (await readFile(domains, "utf8")).split("\n");
  await writeFile(
    domains,
    [
      `${head},logo,theme_color,home_url`,
      `${north},covers/nosferatu.jpg,#1d4f73,https://llevant.example.org`,
      ...rest.map((l) => (l ? `${l},,,` : l)),
    ].join("\n"),
  );
  await rename(
    path.join(project, "site/_includes/header.liquid.example"),
    path.join(project, "site/_includes/header.liquid"),
  );
  out = path.join(project, "dist");
  await buildFixture(content, out, { site: true });
  server = await startServer({ dir: out, port: 0, host: "127.0.0.1" });
  site = `http://${HOST}:${new URL(server.url).port}/`;
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await cleanup?.();
});

run("Lighthouse on init's example site/", () => {
  it("audits pages that show the example: its header with the logo, its page, its stylesheet", async () => {
    const home = await readFile(path.join(out, HOST, "index.html"), "utf8");
    expect(home).toMatch(
      /<a class="brand" href="\.\/"><img src="media\/[^"]+" alt="Xarxa de Biblioteques de Llevant"/,
    );
    expect(home).toContain('<a href="about/">Sobre la xarxa</a>');
    expect(home).toContain('<link rel="stylesheet" href="assets/site.css">');
  });

  it("scores SEO 100, accessibility 100 and best practices 95+ on every kind of page, the own page included", async () => {
    const results: string[] = [];
    for (const rel of [
      "",
      "audiovisual-detail/5/nosferatu/",
      "director/f-w-murnau/",
      "category/peliculas/",
      "about/",
      "es/about/",
    ]) {
      const { scores, failing } = await browser.audit(site + rel, [
        "seo",
        "accessibility",
        "best-practices",
      ]);
      // Best practices read the console: a logo, favicon or stylesheet the pages' security policy blocked would show there.
      if (scores.seo !== 1 || scores.accessibility !== 1 || (scores["best-practices"] ?? 0) < 0.95)
        results.push(`${rel}: ${JSON.stringify(scores)}\n  ${failing.join("\n  ")}`);
    }
    expect(results).toEqual([]);
  }, 600_000);
});
