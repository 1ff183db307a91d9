import { MANIFEST_PATH, parseManifest } from "../../src/output/tree.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseFeed } from "@rowanmanning/feed-parser";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tempDir } from "../helpers/catalogue.ts";
import { MINIMAL, writeContent } from "../helpers/content.ts";
import { buildSite } from "./fixture.ts";

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-site-empty-")));
afterAll(() => cleanup());

it("renders a domain with no listed work: one empty listing page, the browse pages, no work, director or category page", async () => {
  const content = await writeContent(path.join(dir, "content"), {
    domains: MINIMAL.domains + "tres.example,Tres,en,year\n",
  });
  const out = path.join(dir, "out");
  await buildSite(content, out);
  const manifest = parseManifest(await readFile(path.join(out, MANIFEST_PATH), "utf8"));
  const tres = [...manifest.keys()]
    .filter((f) => f.startsWith("tres.example/") && f.endsWith(".html"))
    .sort();
  expect(tres).toEqual([
    "tres.example/404.html",
    "tres.example/decade/index.html",
    "tres.example/index.html",
    "tres.example/leaving/index.html",
    "tres.example/new/index.html",
    "tres.example/ordering/-name/index.html",
    "tres.example/ordering/-year/index.html",
    "tres.example/ordering/name/index.html",
  ]);
  const home = await readFile(path.join(out, "tres.example/index.html"), "utf8");
  expect(home).toContain("<p>No works available.</p>");
  expect(home).not.toContain('rel="next"');
  // Its browse index exists and lists no work; no other search index is written.
  const search = await readFile(path.join(out, "tres.example/browse/search.js"), "utf8");
  expect(search).toContain(`["search"]=JSON.parse('[]');`);
  expect([...manifest.keys()].filter((f) => f.includes("/pagefind/"))).toEqual([]);
  // The browse pages that always exist say there is nothing to show.
  const leaving = await readFile(path.join(out, "tres.example/leaving/index.html"), "utf8");
  expect(leaving).toContain("<p>No work leaves the catalogue in the next 30 days.</p>");
  const news = await readFile(path.join(out, "tres.example/new/index.html"), "utf8");
  expect(news).toContain("<p>No new arrivals in the last 30 days.</p>");
  // Its sitemap lists the home page and those; its feed has no entry and is dated the build date.
  const sitemap = await readFile(path.join(out, "tres.example/sitemap.xml"), "utf8");
  expect([...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual([
    "https://tres.example/",
    "https://tres.example/decade/",
    "https://tres.example/leaving/",
    "https://tres.example/new/",
  ]);
  const feed = parseFeed(await readFile(path.join(out, "tres.example/feed.atom"), "utf8"));
  expect(feed.items).toEqual([]);
  expect(feed.updated?.toISOString()).toBe("2026-11-20T00:00:00.000Z");
});
