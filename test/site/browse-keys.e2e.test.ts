import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputFiles, tempDir } from "../helpers/catalogue.ts";
import { browseContent, cardsOf, expectedWorks } from "./browse-fixture.ts";
import { buildSiteCounted } from "./fixture.ts";

/**
 * The page keys hold each work's browsing columns: a title written in Catalan re-renders the
 * pages of the Catalan version that show the work or whose order it changed, and the work's own
 * page in the other versions (among its other titles), nothing else; the API is not touched.
 */

let temp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => (temp = await tempDir("catalogue-browse-keys-")));
afterAll(() => temp?.cleanup());

describe("the browsing columns in the pages' keys", () => {
  it("a new name_ca rewrites the Catalan pages that show the work or moved, and its work pages", async () => {
    const content = await browseContent(temp.dir);
    const out = path.join(temp.dir, "out");
    await buildSiteCounted(content, out);
    const before = await outputFiles(out);
    const cardsBefore = new Map<string, string>();
    for (const rel of Object.keys(before))
      if (rel.startsWith("domain-1.example/ca/") && rel.endsWith(".html"))
        cardsBefore.set(rel, JSON.stringify(cardsOf(await readFile(path.join(out, rel), "utf8"))));
    // Work 2's Catalan title changes (the English one stays).
    const works = path.join(content, "audiovisuals.csv");
    const text = await readFile(works, "utf8");
    expect(text).toContain("Títol en català");
    await writeFile(works, text.replace("Títol en català", "Un altre títol"));
    const again = await buildSiteCounted(content, out);
    const after = await outputFiles(out);
    const changed = Object.keys(after).filter((rel) => after[rel]!.md5 !== before[rel]?.md5);
    const pages = changed.filter((rel) => rel.endsWith(".html"));
    expect(pages).toContain("domain-1.example/ca/audiovisual-detail/2/obra-2/index.html");
    const workPages = ["", "en/", "ca/"].map(
      (v) => `domain-1.example/${v}audiovisual-detail/2/obra-2/index.html`,
    );
    for (const rel of workPages) expect(pages).toContain(rel);
    for (const rel of pages) {
      const ownPage = rel.endsWith("/audiovisual-detail/2/obra-2/index.html"); // in any domain
      expect(rel.startsWith("domain-1.example/ca/") || ownPage, rel).toBe(true);
      // A page shows the new title, or is a Catalan list whose order the new title changed.
      const text = await readFile(path.join(out, rel), "utf8");
      const moved = JSON.stringify(cardsOf(text)) !== cardsBefore.get(rel);
      expect(text.includes("Un altre títol") || moved, rel).toBe(true);
    }
    // Every Catalan page that shows the work changed: the decade's page of its year, for one.
    const two = (await expectedWorks(content, "domain-1.example")).find((w) => w.id === 2);
    if (two?.year != null) {
      const decade = two.year - (two.year % 10);
      const shown = Object.keys(after).filter(
        (rel) => rel.startsWith(`domain-1.example/ca/decade/${decade}/`) && rel.endsWith(".html"),
      );
      const showing: string[] = [];
      for (const rel of shown)
        if ((await readFile(path.join(out, rel), "utf8")).includes("Un altre títol"))
          showing.push(rel);
      expect(showing.length).toBe(1);
      expect(pages).toContain(showing[0]);
    }
    // Only those pages were rendered again; the API and the spreadsheets kept every byte.
    expect(again.toRender).toBe(pages.length);
    // The API and the spreadsheets do not show the title in Catalan; the MARC records do (246).
    const isMarc = (rel: string) => /\/_api\/export\/[^/]+\.(mrc|xml)$/.test(rel);
    expect(
      changed.filter((rel) => (rel.includes("/_api/") && !isMarc(rel)) || rel.endsWith(".xlsx")),
    ).toEqual([]);
  }, 240_000);
});
