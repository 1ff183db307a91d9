import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseFeed } from "@rowanmanning/feed-parser";
import jsonld from "jsonld";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView, type DomainView } from "../../src/model/domain-view.ts";
import { MAX_URLS, sitemapFiles } from "../../src/site/sitemap.ts";
import { outputFiles, ROOT, tempDir } from "../helpers/catalogue.ts";
import { buildSite, directorPhotos, SCRIPT_ID, SCRIPT_TITLE, siteContent } from "./fixture.ts";

/**
 * What search engines, link previews and feed readers get from the site: the sitemap (checked
 * listing exactly the pages built; test/site/sitemap-schema.e2e.test.ts checks its files against
 * the protocol's schema with xmllint), robots.txt, the Atom feed (read by a feed parser),
 * every page's head and its JSON-LD (expanded by a JSON-LD processor). Expected values come from
 * the content and the built files, not from src/site/.
 */

const FIXTURES = path.join(ROOT, "test/fixtures");
const SCHEMA_ORG = JSON.parse(
  await readFile(path.join(FIXTURES, "schema.org/context.jsonld"), "utf8"),
);
const S = "http://schema.org/";

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;
let views: DomainView[];
let manifest: string[];

const BASES: Record<string, { url: string; folder: string }> = {
  "domain-1.example": { url: "https://domain-1.example/", folder: "domain-1.example/" },
  "domain-2.example": {
    url: "https://domain-2.example/cataleg/",
    folder: "domain-2.example/cataleg/",
  },
};
const read = (rel: string) => readFile(path.join(out, rel), "utf8");

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-seo-"));
  content = await siteContent(dir);
  // Director 1 may show their photo, director 2 has one but may not: only the first is shown.
  await directorPhotos(content, { 1: true, 2: false });
  // The work whose title is markup is new in the first domain: the feed must hold it as text.
  const availability = path.join(content, "availability.csv");
  await writeFile(
    availability,
    (await readFile(availability, "utf8")).replace(
      `${SCRIPT_ID},domain-1.example,2020-01-01,`,
      `${SCRIPT_ID},domain-1.example,2026-11-19,`,
    ),
  );
  out = path.join(dir, "out");
  await buildSite(content, out);
  const catalogue = await loadCatalogue(content, () => {});
  views = catalogue.domains.map((d) => domainView(catalogue, d, "2026-11-20"));
  manifest = Object.keys(await outputFiles(out));
}, 120_000);
afterAll(() => cleanup());

/** The site's pages (index.html files) of a domain, as the folders they answer at. */
const pageDirs = (domain: string) =>
  manifest
    .filter((f) => f.startsWith(BASES[domain]!.folder) && f.endsWith("index.html"))
    .map((f) => f.slice(BASES[domain]!.folder.length, -"index.html".length))
    .filter((d) => !d.startsWith("api/"));

describe("the sitemap", () => {
  it("lists exactly the pages built, but other orderings", async () => {
    for (const view of views) {
      const domain = view.domain.domain;
      const { url, folder } = BASES[domain]!;
      const file = path.join(out, folder, "sitemap.xml");
      const locs = [...(await readFile(file, "utf8")).matchAll(/<loc>([^<]*)<\/loc>/g)].map(
        (m) => m[1]!,
      );
      const expected = pageDirs(domain)
        .filter((d) => !d.startsWith("ordering/"))
        .map((d) => url + d);
      expect(expected.length).toBeGreaterThan(view.orders.name.length);
      expect([...locs].sort()).toEqual([...expected].sort());
      expect(new Set(locs).size).toBe(locs.length);
      expect(locs[0]).toBe(url);
      // No lastmod: the build knows no true date of a page's change.
      expect(await readFile(file, "utf8")).not.toContain("lastmod");
    }
  });

  it("splits a domain past 50,000 URLs (or 50 MB) into parts under a sitemap index", async () => {
    const base = "https://big.example/cataleg";
    const urls = Array.from(
      { length: MAX_URLS * 2 + 1 },
      (_, i) => `${base}/audiovisual-detail/${i + 1}/obra-${i + 1}/`,
    );
    const files = sitemapFiles(base, urls);
    expect([...files.keys()].sort()).toEqual([
      "sitemap-1.xml",
      "sitemap-2.xml",
      "sitemap-3.xml",
      "sitemap.xml",
    ]);
    const index = files.get("sitemap.xml")!;
    expect([...index.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual(
      [1, 2, 3].map((n) => `${base}/sitemap-${n}.xml`),
    );
    const counts: number[] = [];
    const all: string[] = [];
    for (const [name, text] of files) {
      if (name !== "sitemap.xml") {
        const locs = [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
        counts.push(locs.length);
        all.push(...locs);
      }
    }
    expect(counts).toEqual([MAX_URLS, MAX_URLS, 1]);
    expect(all).toEqual(urls);
    // The byte limit splits too (a small one here: URLs can be 2,048 characters long).
    const bySize = sitemapFiles(base, urls.slice(0, 1000), { urls: MAX_URLS, bytes: 20_000 });
    expect(bySize.size).toBeGreaterThan(3);
    for (const [name, text] of bySize)
      if (name !== "sitemap.xml") expect(Buffer.byteLength(text)).toBeLessThanOrEqual(20_000);
  });

  it("is named by robots.txt at the root of the domain's host, under a base path too", async () => {
    expect(await read("domain-1.example/robots.txt")).toMatch(
      /^User-agent: \*\nDisallow: \/api\/\nSitemap: https:\/\/domain-1\.example\/sitemap\.xml\n$/m,
    );
    const second = await read("domain-2.example/robots.txt");
    expect(second).toContain("\nDisallow: /cataleg/api/\n");
    expect(second).toContain("\nSitemap: https://domain-2.example/cataleg/sitemap.xml\n");
    expect(manifest).not.toContain("domain-2.example/cataleg/robots.txt");
  });
});

describe("the Atom feed", () => {
  it("holds exactly the new works, newest first, in the domain's language, with ids from the works", async () => {
    for (const view of views) {
      const domain = view.domain.domain;
      const { url, folder } = BASES[domain]!;
      const feed = parseFeed(await read(`${folder}feed.atom`));
      expect(feed.meta.type).toBe("atom");
      expect(feed.language).toBe(view.domain.locale === "en" ? "en" : "es");
      expect(feed.self).toBe(`${url}feed.atom`);
      const fresh = view.orders.name.filter((l) => l.isNew);
      expect(fresh.length).toBeGreaterThan(2);
      const dates = feed.items.map((i) => i.published!.toISOString().slice(0, 10));
      expect(dates).toEqual([...dates].sort().reverse());
      expect(feed.items.map((i) => i.title).sort()).toEqual(fresh.map((l) => l.work.name).sort());
      for (const item of feed.items) {
        const listed = fresh.find((l) => l.work.name === item.title)!;
        expect(item.id).toBe(`${url}api/v1/videos/audiovisuals/${listed.work.id}/`);
        expect(item.url).toBe(`${url}audiovisual-detail/${listed.work.id}/${listed.work.slug}/`);
        expect(item.published!.toISOString()).toBe(`${listed.window.from}T00:00:00.000Z`);
      }
      expect(feed.updated!.toISOString()).toBe(feed.items[0]!.published!.toISOString());
    }
  });

  it("is linked from every page's head and footer", async () => {
    for (const page of manifest.filter((f) => f.endsWith(".html"))) {
      const html = await read(page);
      expect(html, page).toMatch(
        /<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="(\.\.\/)*feed\.atom">|href="\/cataleg\/feed\.atom"|href="\/feed\.atom"/,
      );
      expect(html, page).toMatch(
        /<footer[^]*<a href="[^"]*feed\.atom" type="application\/atom\+xml">/,
      );
    }
  });

  it("keeps a title written as markup as text", async () => {
    const feed = await read("domain-1.example/feed.atom");
    const item = parseFeed(feed).items.find(
      (i) => i.id === `https://domain-1.example/api/v1/videos/audiovisuals/${SCRIPT_ID}/`,
    );
    expect(item?.title).toBe(SCRIPT_TITLE);
    expect(item?.published?.toISOString()).toBe("2026-11-19T00:00:00.000Z");
    expect(feed).not.toContain("<script>");
  });
});

/** Every `<meta>`/`<link>` attribute pair of a page's head, decoded. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const meta = new Map<string, string>();
  for (const m of head.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)">/g))
    meta.set(m[1]!, decode(m[2]!));
  const canonical = /<link rel="canonical" href="([^"]+)">/.exec(head)?.[1];
  const scripts = [...head.matchAll(/<script type="application\/ld\+json">/g)].length;
  const json = /<script type="application\/ld\+json">([^]*?)<\/script>/.exec(head)?.[1];
  return { meta, canonical, scripts, json: json === undefined ? undefined : JSON.parse(json) };
}

describe("every page's head", () => {
  it("has an absolute canonical link to itself, a description and Open Graph and Twitter tags", async () => {
    for (const view of views) {
      const domain = view.domain.domain;
      const { url, folder } = BASES[domain]!;
      const descriptions = new Map<string, string>();
      for (const d of pageDirs(domain)) {
        const { meta, canonical } = headOf(await read(`${folder}${d}index.html`));
        expect(canonical, d).toBe(url + d);
        expect(meta.get("og:url"), d).toBe(url + d);
        const description = meta.get("description")!;
        expect(description.length, d).toBeGreaterThan(20);
        expect(description.length, d).toBeLessThanOrEqual(200);
        expect(meta.get("og:description")).toBe(description);
        expect(meta.get("twitter:description")).toBe(description);
        expect(meta.get("og:locale")).toBe(view.domain.locale === "en" ? "en_GB" : "es_ES");
        expect(meta.get("og:title")).toBeTruthy();
        // Every page of a kind says something of its own (the listings' pages say their number).
        if (!d.startsWith("ordering/")) {
          expect(
            descriptions.get(description),
            `${d} and ${descriptions.get(description)}`,
          ).toBeUndefined();
          descriptions.set(description, d);
        }
        const image = meta.get("og:image");
        if (image !== undefined) {
          expect(image).toMatch(/^https:\/\//);
          // The default media_url is on the site's host: the URL's host and path are the file's place in the output.
          expect(manifest, image).toContain(image.slice("https://".length));
          expect(Number(meta.get("og:image:width"))).toBeGreaterThan(0);
          expect(Number(meta.get("og:image:height"))).toBeGreaterThan(0);
          expect(meta.get("twitter:card")).toBe("summary_large_image");
        } else expect(meta.get("twitter:card")).toBe("summary");
      }
    }
  });

  it("describes each kind of page from its data", async () => {
    const view = views[1]!; // English, under /cataleg
    const folder = BASES["domain-2.example"]!.folder;
    const listed = view.orders.name.find(
      (l) => l.director !== null && l.work.year !== null && l.work.audiovisual_type !== null,
    )!;
    const work = headOf(
      await read(`${folder}audiovisual-detail/${listed.work.id}/${listed.work.slug}/index.html`),
    ).meta.get("description")!;
    for (const part of [
      listed.work.name,
      String(listed.work.year),
      listed.director!.name,
      "Red de bibliotecas 2",
    ])
      expect(work).toContain(part);
    const home = headOf(await read(`${folder}index.html`)).meta.get("description")!;
    expect(home).toContain(`${view.orders.name.length} works`);
    expect(home).toContain("Red de bibliotecas 2");
    expect(home).toContain("Year (newest first)"); // the domain's default ordering
    const director = headOf(
      await read(`${folder}director/${listed.director!.slug}/index.html`),
    ).meta.get("description")!;
    // The first sentence of the English biography (after the name, when the biography does not start with it).
    const sentence = director.replace(`${listed.director!.name}: `, "").replace(/…$/, "");
    expect(director.startsWith(listed.director!.name)).toBe(true);
    expect(listed.director!.description_en!.startsWith(sentence)).toBe(true);
    expect(listed.director!.description_en!.length).toBeGreaterThan(sentence.length + 10);
    expect(director).toMatch(/[.…]$/);
    const type = listed.work.audiovisual_type!;
    const count = view.orders.name.filter((l) => l.work.audiovisual_type === type).length;
    expect(
      headOf(await read(`${folder}category/${type}/index.html`)).meta.get("description"),
    ).toContain(count === 1 ? "1 work" : `${count} works`);
  });

  it("shows a director's photo only where show_img allows it", async () => {
    for (const [id, shown] of [
      [1, true],
      [2, false],
    ] as const) {
      const listed = views[0]!.orders.name.find((l) => l.director?.id === id);
      if (listed === undefined) continue;
      const { meta, json } = headOf(
        await read(`domain-1.example/director/${listed.director!.slug}/index.html`),
      );
      expect(meta.has("og:image"), `director ${id}`).toBe(shown);
      expect(
        "image" in json["@graph"].find((n: { "@type": string }) => n["@type"] === "Person"),
        `director ${id}`,
      ).toBe(shown);
    }
  });

  it("asks that the 404 page not be indexed, and gives it no canonical link", async () => {
    const { meta, canonical, scripts } = headOf(await read("domain-2.example/cataleg/404.html"));
    expect(meta.get("robots")).toBe("noindex");
    expect(canonical).toBeUndefined();
    expect(scripts).toBe(0);
  });
});

const documentLoader = async (url: string) => {
  if (!/^https?:\/\/schema\.org\/?$/.test(url))
    throw new Error(`the test downloads nothing: ${url}`);
  return { contextUrl: undefined, documentUrl: url, document: SCHEMA_ORG };
};

/** The JSON-LD of a page, expanded: the nodes by their type. */
async function expanded(rel: string): Promise<Map<string, Record<string, any>>> {
  const { json, scripts } = headOf(await read(rel));
  expect(scripts, rel).toBe(1);
  const nodes = (await jsonld.expand(json, { documentLoader: documentLoader })) as Record<
    string,
    any
  >[];
  const graph = nodes.flatMap((n) => n["@graph"] ?? [n]);
  return new Map(graph.map((n) => [n["@type"][0], n]));
}

const value = (node: Record<string, any>, term: string) =>
  node[S + term]?.[0]?.["@value"] ?? node[S + term]?.[0]?.["@id"];

describe("the JSON-LD", () => {
  const view = () => views[0]!;
  const base = "https://domain-1.example/";

  it("describes a work page as a Movie with its director as a Person, and its trail", async () => {
    const listed = view().orders.name.find(
      (l) =>
        l.director !== null &&
        l.work.year !== null &&
        l.work.audiovisual_type !== null &&
        l.work.duration !== null,
    )!;
    const { work } = listed;
    const dir = `audiovisual-detail/${work.id}/${work.slug}/`;
    const nodes = await expanded(`domain-1.example/${dir}index.html`);
    expect([...nodes.keys()].sort()).toEqual([`${S}BreadcrumbList`, `${S}ItemPage`, `${S}Movie`]);
    const movie = nodes.get(`${S}Movie`)!;
    // The page, not the work, has a language: that of its interface.
    const page = nodes.get(`${S}ItemPage`)!;
    expect(value(page, "inLanguage")).toBe("es");
    expect(value(page, "mainEntity")).toBe(movie["@id"]);
    expect(value(movie, "name")).toBe(work.name);
    expect(value(movie, "url")).toBe(base + dir);
    expect(value(movie, "dateCreated")).toBe(String(work.year));
    expect(value(movie, "duration")).toBe(`PT${work.duration}M`);
    expect(value(movie, "genre")).toBeTruthy();
    expect(movie[`${S}inLanguage`]).toBeUndefined(); // the content has no language of the works
    const image = movie[`${S}image`][0];
    expect(image["@type"]).toEqual([`${S}ImageObject`]);
    expect(value(image, "contentUrl")).toMatch(/^https:\/\/domain-1\.example\/media\/.+\.jpeg$/);
    const director = movie[`${S}director`][0];
    expect(director["@type"]).toEqual([`${S}Person`]);
    expect(value(director, "name")).toBe(listed.director!.name);
    expect(value(director, "url")).toBe(`${base}director/${listed.director!.slug}/`);
    const breadcrumbs = nodes.get(`${S}BreadcrumbList`)!;
    const trail = breadcrumbs[`${S}itemListElement`].map((i: any) => [
      value(i, "position"),
      value(i, "item"),
    ]);
    expect(trail).toEqual([
      [1, base],
      [2, `${base}category/${work.audiovisual_type}/`],
      [3, base + dir],
    ]);
  });

  it("describes a director page as a Person, listing pages as an ItemList, categories with a trail", async () => {
    const listed = view().orders.name.find((l) => l.director !== null)!;
    const person = (
      await expanded(`domain-1.example/director/${listed.director!.slug}/index.html`)
    ).get(`${S}Person`)!;
    expect(value(person, "name")).toBe(listed.director!.name);
    expect(value(person, "url")).toBe(`${base}director/${listed.director!.slug}/`);

    const list = (await expanded("domain-1.example/page/2/index.html")).get(`${S}ItemList`)!;
    expect(value(list, "numberOfItems")).toBe(view().orders.name.length);
    const items = list[`${S}itemListElement`].map((i: any) => [
      value(i, "position"),
      value(i, "url"),
    ]);
    const second = view().orders[view().domain.default_ordering].slice(20, 40);
    expect(items).toEqual(
      second.map((l, i) => [21 + i, `${base}audiovisual-detail/${l.work.id}/${l.work.slug}/`]),
    );

    const type = listed.work.audiovisual_type ?? "peliculas";
    const category = await expanded(`domain-1.example/category/${type}/index.html`);
    expect([...category.keys()].sort()).toEqual([
      `${S}BreadcrumbList`,
      `${S}CollectionPage`,
      `${S}ItemList`,
    ]);
    expect(value(category.get(`${S}CollectionPage`)!, "inLanguage")).toBe("es");
  });

  it("keeps a title holding </script> inside its string", async () => {
    const html = await read(
      `domain-1.example/audiovisual-detail/${SCRIPT_ID}/script-title/index.html`,
    );
    const script = /<script type="application\/ld\+json">([^]*?)<\/script>/.exec(html)![1]!;
    expect(script).not.toMatch(/<\/?script/i);
    expect(script).not.toContain("<!--");
    const movie = (
      await expanded(`domain-1.example/audiovisual-detail/${SCRIPT_ID}/script-title/index.html`)
    ).get(`${S}Movie`)!;
    expect(value(movie, "name")).toBe(SCRIPT_TITLE);
    // A script ends only at its own closing tag: the page has exactly the search script's and this one.
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });
});
