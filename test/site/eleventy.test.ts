import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView } from "../../src/model/listing.ts";
import type { DomainInfo } from "../../src/output/build-info.ts";
import { renderPages } from "../../src/site/eleventy.ts";
import { siteImages } from "../../src/site/images.ts";
import { domainSite, sitePages, type SitePage } from "../../src/site/model.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";

let cleanup: () => Promise<void>;
let pages: SitePage[];
let broken: SitePage[];

beforeAll(async () => {
  const temp = await tempDir("catalogue-site-eleventy-");
  cleanup = temp.cleanup;
  const content = await writeContent(path.join(temp.dir, "content"));
  const catalogue = await loadCatalogue(content, () => {});
  const domain = catalogue.domains[0]!;
  const info: DomainInfo = {
    domain: domain.domain,
    name: domain.name,
    base_url: domain.base_url,
    media_url: domain.media_url,
    locale: domain.locale,
    default_ordering: domain.default_ordering,
    base_path: "",
    media_folder: `${domain.domain}/media`,
    count: 0,
    total_pages: 1,
    exports: {},
    site: true,
  };
  const view = domainView(catalogue, domain, "2026-11-20");
  const images = await siteImages([...catalogue.images.values()], path.join(temp.dir, "cache"));
  pages = [...sitePages(domainSite(view, info, images), view)];
  // Without its processed images a page cannot be rendered: a bug, as far as Eleventy knows.
  broken = [...sitePages(domainSite(view, info, new Map()), view)];
});
afterAll(() => cleanup());

describe("the Eleventy run", () => {
  it("hands every page to the sink once, with its output path", async () => {
    const seen: string[] = [];
    const count = await renderPages(pages, async (rel, html) => {
      expect(html).toMatch(/^<!doctype html>/);
      seen.push(rel);
    });
    expect(count).toBe(pages.length);
    expect(seen.sort()).toEqual(
      pages.map((p) => `uno.example/${p.dir === null ? "404.html" : `${p.dir}index.html`}`).sort(),
    );
    expect(seen).toContain("uno.example/audiovisual-detail/10/viaje-a-la-luna/index.html");
  });

  it("renders in several runs when there are more pages than a run takes, each page once", async () => {
    expect(pages.length).toBeGreaterThan(4);
    const seen: string[] = [];
    const count = await renderPages(pages, async (rel) => void seen.push(rel), 2);
    expect(count).toBe(pages.length);
    expect(seen.sort()).toEqual(pages.map((p) => `uno.example/${p.dir === null ? "404.html" : `${p.dir}index.html`}`).sort());
  });

  it("stops at the first failure of the sink and rethrows it as it was", async () => {
    const failure = new Error("disk full");
    let calls = 0;
    await expect(
      renderPages(pages, async () => {
        if (++calls === 3) throw failure;
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(3);
  });

  it("rethrows an error of a template itself, not Eleventy's wrapper", async () => {
    let calls = 0;
    const error = await renderPages(broken, async () => void calls++).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(calls).toBe(0);
  });
});
