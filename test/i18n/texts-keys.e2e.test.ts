import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { outputFiles, tempDir } from "../helpers/catalogue.ts";
import { buildSiteCounted, siteContent } from "../site/fixture.ts";

// A corrected Spanish text, as if i18n/es.json had been edited between two builds.
const corrected = vi.hoisted(() => ({ on: false }));
vi.mock("../../src/web/i18n.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/web/i18n.ts")>();
  return {
    ...original,
    stringsFor: (locale: string) => {
      const strings = original.stringsFor(locale);
      if (!corrected.on || strings.code !== "es") return strings;
      return original.stringsFromTexts("es", {
        ...original.resolvedTexts("es"),
        "search.label": "Busque por título o por director",
      });
    },
  };
});

// The program's digest covers i18n/*.json (src/program.ts): an edited file is a new program.
vi.mock("../../src/program.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/program.ts")>();
  return {
    ...original,
    programDigest: async () =>
      (await original.programDigest()) + (corrected.on ? " es.json edited" : ""),
  };
});

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-i18n-keys-"));
  content = await siteContent(dir);
  out = path.join(dir, "out");
});
afterAll(() => cleanup());

describe("the interface texts in the pages' keys", () => {
  it("a corrected translation rewrites the pages that show it, in its language only", async () => {
    await buildSiteCounted(content, out);
    const before = await outputFiles(out);
    corrected.on = true;
    const again = await buildSiteCounted(content, out);
    const after = await outputFiles(out);
    const changed = Object.keys(after).filter(
      (rel) => after[rel]!.md5 !== before[rel]?.md5 && rel.endsWith(".html"),
    );
    // domain-1 is Spanish: its listing pages (the only ones with the search box) change.
    const listings = Object.keys(after).filter((rel) =>
      /^domain-1\.example\/(ordering\/[^/]+\/)?(page\/\d+\/)?index\.html$/.test(rel),
    );
    expect(listings.length).toBeGreaterThan(4);
    expect(changed.sort()).toEqual(listings.sort());
    for (const rel of changed)
      expect(await readFile(path.join(out, rel), "utf8")).toContain(
        "Busque por título o por director",
      );
    // The English domain's pages are not even rendered again; the Spanish domain's are.
    const spanishPages = Object.keys(after).filter(
      (rel) => rel.startsWith("domain-1.example/") && rel.endsWith(".html"),
    ).length;
    expect(again.toRender).toBe(spanishPages);
  });
});
