import { stat, utimes } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputFiles, tempDir } from "../helpers/catalogue.ts";
import { buildSite, siteContent } from "./fixture.ts";

/**
 * The site built twice from the same content (three whole builds, hence e2e;
 * test/site/render.unit.test.ts checks the pages of one build).
 */

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;

const files = (outDir: string) => outputFiles(outDir);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-site-twice-"));
  content = await siteContent(dir);
  out = path.join(dir, "out");
  await buildSite(content, out);
});
afterAll(() => cleanup());

describe("the HTML catalogue", () => {
  it("is byte-identical when built twice, browse index included, and a rebuild rewrites nothing", async () => {
    const again = path.join(dir, "again");
    await buildSite(content, again);
    const [a, b] = [await files(out), await files(again)];
    expect(Object.keys(a).filter((f) => f.includes("/browse/")).length).toBeGreaterThan(4);
    // The sitemaps, feeds and robots.txt are compared too.
    for (const f of [
      "domain-1.example/sitemap.xml",
      "domain-1.example/feed.atom",
      "domain-2.example/cataleg/sitemap.xml",
      "domain-2.example/cataleg/feed.atom",
      "domain-2.example/robots.txt",
    ])
      expect(a[f], f).toBeDefined();
    expect(b).toEqual(a);
    // Touching an image changes the build's input fingerprint but none of its bytes: the site is
    // rendered again and every page comes out identical, so no page is rewritten.
    const page = path.join(out, "domain-1.example/index.html");
    const before = (await stat(page)).ino;
    const now = new Date();
    await utimes(path.join(content, "covers/cover-0.png"), now, now);
    const summary = await buildSite(content, out);
    expect(summary.removed).toBe(0);
    const after = await files(out);
    const changed = Object.keys(after).filter((f) => after[f]!.md5 !== a[f]?.md5);
    expect(changed.filter((f) => !f.startsWith("_catalogue/"))).toEqual([]);
    expect(summary.written).toBe(changed.length);
    expect((await stat(page)).ino).toBe(before);
  });
});
