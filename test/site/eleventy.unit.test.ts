import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView } from "../../src/model/domain-view.ts";
import type { DomainInfo } from "../../src/output/build-info.ts";
import { renderPages, versionEntries } from "../../src/site/eleventy.ts";
import { siteImages } from "../../src/site/image-variants.ts";
import {
  domainSite,
  domainSites,
  pagePath,
  sitePages,
  type SitePage,
} from "../../src/site/model.ts";
import { renderPage } from "../../src/site/templates/page.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";

let cleanup: () => Promise<void>;
let pages: SitePage[];
let broken: SitePage[];
/** The pages of a domain in three languages, one list per version. */
let versions: SitePage[][];
/** Each page an entry of its own, as a domain in one language has them. */
const alone = (list: SitePage[]) => list.map((page) => [page]);

beforeAll(async () => {
  const temp = await tempDir("catalogue-site-eleventy-");
  cleanup = temp.cleanup;
  const content = await writeContent(path.join(temp.dir, "content"), {
    domains:
      "domain,name,locale,default_ordering,languages\nuno.example,Uno,es,name\ntres.example,Tres,ca,name,es en\n",
    availability:
      "audiovisual_id,domain,available_from,available_until\n10,uno.example,2020-01-01,\n11,uno.example,2026-11-10,2026-12-31\n12,uno.example,2020-01-01,\n10,tres.example,2020-01-01,\n11,tres.example,2020-01-01,\n",
  });
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
  const multilingual = catalogue.domains[1]!;
  const threeView = domainView(catalogue, multilingual, "2026-11-20");
  const threeInfo: DomainInfo = {
    ...info,
    domain: multilingual.domain,
    name: multilingual.name,
    base_url: multilingual.base_url,
    locale: multilingual.locale,
    media_folder: `${multilingual.domain}/media`,
  };
  versions = domainSites(threeView, threeInfo, images).map((site) => [
    ...sitePages(site, threeView),
  ]);
});
afterAll(() => cleanup());

describe("the Eleventy run", () => {
  it("hands every page to the sink once, with its output path", async () => {
    const seen: string[] = [];
    const count = await renderPages(alone(pages), async (rel, html) => {
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
    const count = await renderPages(alone(pages), async (rel) => void seen.push(rel), 2);
    expect(count).toBe(pages.length);
    expect(seen.sort()).toEqual(
      pages.map((p) => `uno.example/${p.dir === null ? "404.html" : `${p.dir}index.html`}`).sort(),
    );
  });

  it("stops at the first failure of the sink and rethrows it as it was", async () => {
    const failure = new Error("disk full");
    let calls = 0;
    await expect(
      renderPages(alone(pages), async () => {
        if (++calls === 3) throw failure;
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(3);
  });

  it("rethrows an error of a template itself, not Eleventy's wrapper", async () => {
    let calls = 0;
    const error = await renderPages(alone(broken), async () => void calls++).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(calls).toBe(0);
  });

  it("renders the language versions of a page as one Eleventy page: every version once, as it renders alone", async () => {
    const entries = versionEntries(versions);
    expect(versions.map((list) => list.length)).toEqual([
      versions[0]!.length,
      versions[0]!.length,
      versions[0]!.length,
    ]);
    // One entry per page of the site, with its three versions, the locale's first.
    expect(entries).toHaveLength(versions[0]!.length);
    for (const entry of entries) {
      expect(entry.map((page) => page.site.prefix)).toEqual(["", "es/", "en/"]);
      expect(new Set(entry.map((page) => page.dir)).size).toBe(1);
    }
    const seen = new Map<string, string>();
    const count = await renderPages(
      entries,
      async (rel, html) => {
        expect(seen.has(rel)).toBe(false);
        seen.set(rel, html);
      },
      3,
    );
    const all = versions.flat();
    expect(count).toBe(all.length);
    expect([...seen.keys()].sort()).toEqual(all.map(pagePath).sort());
    expect(seen.get("tres.example/en/audiovisual-detail/10/viaje-a-la-luna/index.html")).toMatch(
      /^<!doctype html>\n<html lang="en">/,
    );
    for (const page of all) expect(seen.get(pagePath(page))).toBe(renderPage(page));
  });

  it("renders only the versions an entry holds (a page kept in the others)", async () => {
    // The Spanish version alone of the first pages, all three of the others.
    const [ca, es, en] = versions as [SitePage[], SitePage[], SitePage[]];
    const entries = versionEntries([ca.slice(2), es, en.slice(2)]);
    const entryOf = (dir: string | null) =>
      entries.find((entry) => entry[0]!.dir === dir)!.map((page) => page.site.prefix);
    expect(entryOf(es[0]!.dir)).toEqual(["es/"]);
    expect(entryOf(es[1]!.dir)).toEqual(["es/"]);
    expect(entryOf(es[2]!.dir)).toEqual(["", "es/", "en/"]);
    expect(entries).toHaveLength(es.length);
    const seen: string[] = [];
    const count = await renderPages(entries, async (rel) => void seen.push(rel));
    expect(count).toBe(ca.length - 2 + es.length + en.length - 2);
    expect(seen.sort()).toEqual([...ca.slice(2), ...es, ...en.slice(2)].map(pagePath).sort());
  });

  it("stops at the first failure of the sink for a version after the first, and rethrows it as it was", async () => {
    const failure = new Error("disk full");
    const rels: string[] = [];
    await expect(
      renderPages(versionEntries(versions), async (rel) => {
        rels.push(rel);
        if (rel.startsWith("tres.example/en/")) throw failure;
      }),
    ).rejects.toBe(failure);
    expect(rels.filter((rel) => rel.startsWith("tres.example/en/"))).toHaveLength(1);
  });
});
