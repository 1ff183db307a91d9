import { afterEach, describe, expect, it, vi } from "vitest";
import type { DomainSite } from "../../src/site/model.ts";
import {
  buildIndex,
  startSearch,
  stopSearch,
  type IndexFile,
  type SearchDocument,
} from "../../src/site/search.ts";

// Only the language of a site reaches Pagefind's options.
const site = { strings: { lang: "es" } } as DomainSite;
const documents: SearchDocument[] = [
  "Camino lluvia",
  "Carta del tren",
  "Título renombrado",
  "Ñandú & <script>",
].map((title, i) => ({
  url: `audiovisual-detail/${i + 1}/obra-${i + 1}/`,
  content: `<!doctype html><html lang="es"><body><div data-pagefind-body><h1>${title.replace(/[&<]/g, (c) => (c === "&" ? "&amp;" : "&lt;"))}</h1></div></body></html>`,
}));

/** Both processes' index of the documents. */
const bothIndexes = () =>
  Promise.all([buildIndex(site, documents, 1, 0), buildIndex(site, documents, 1, 1)]);
const listing = (files: IndexFile[]) =>
  files.map((f) => [f.path, Buffer.from(f.content).toString("base64")]);

afterEach(() => stopSearch());

describe("the search index's processes", () => {
  it("started ahead (startSearch) build the same index as started on demand, in both processes, twice over", async () => {
    const [cold, coldSecond] = await bothIndexes();
    await stopSearch();
    startSearch();
    // Started twice (a dev rebuild): the running processes are reused.
    startSearch();
    const [warm, warmSecond] = await bothIndexes();
    expect(cold.map((f) => f.path)).toContain("pagefind-entry.json");
    expect(listing(warm)).toEqual(listing(cold));
    expect(listing(warmSecond)).toEqual(listing(coldSecond));
    expect(listing(coldSecond)).toEqual(listing(cold));
  });

  it("stop cleanly when started ahead and never asked to index", async () => {
    startSearch();
    await stopSearch();
    const [files] = await bothIndexes();
    expect(files.length).toBeGreaterThan(0);
  });
});

describe("the search index's key", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });
  /** A part's key from a fresh search.ts (it reads Pagefind's version once) under `env`. */
  const keyWith = async (extended: string, plain: string) => {
    vi.resetModules();
    vi.stubEnv("PAGEFIND_EXTENDED_BINARY_PATH", extended);
    vi.stubEnv("PAGEFIND_BINARY_PATH", plain);
    const { searchKey } = await import("../../src/site/search.ts");
    return searchKey(site, [{ key: "a" }]);
  };

  it("follows the binary Pagefind runs, whichever variable names it (the extended one first)", async () => {
    const installed = await keyWith("", "");
    const extended = await keyWith("/opt/pagefind_extended", "");
    expect(extended).not.toBe(installed);
    expect(await keyWith("", "/opt/pagefind_extended")).toBe(extended);
    expect(await keyWith("/opt/pagefind_extended", "/opt/other")).toBe(extended);
    expect(await keyWith("/opt/other", "")).not.toBe(extended);
  });
});
