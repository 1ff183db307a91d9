import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, outputFiles, tempDir } from "../helpers/catalogue.ts";
import {
  browseContent,
  cardsOf,
  dayNumber,
  expectedWorks,
  shownTitle,
  T,
  unescape,
  versionOrder,
  type Expected,
} from "./browse-fixture.ts";

/**
 * The static browse pages (decade/, decade/<YYY0>/, new/, leaving/) of every language version,
 * against a plain computation over the CSV rows; titles in each language; the work page's facts;
 * the sitemap; and the API and spreadsheets unchanged by the browsing columns.
 */

let temp: { dir: string; cleanup: () => Promise<void> };
let out: string;
let content: string;
const expected = new Map<string, Expected[]>();

beforeAll(async () => {
  temp = await tempDir("catalogue-browse-");
  content = await browseContent(path.join(temp.dir, "with"));
  out = path.join(temp.dir, "out");
  await buildFixture(content, out, { site: true });
  for (const host of ["domain-1.example", "domain-2.example"])
    expected.set(host, await expectedWorks(content, host));
}, 240_000);
afterAll(() => temp?.cleanup());

/** Each version: its folder in the output, its language, its domain. */
const VERSIONS = [
  { host: "domain-1.example", root: "domain-1.example/", lang: "es" },
  { host: "domain-1.example", root: "domain-1.example/en/", lang: "en" },
  { host: "domain-1.example", root: "domain-1.example/ca/", lang: "ca" },
  { host: "domain-2.example", root: "domain-2.example/cataleg/", lang: "en" },
];

const page = (root: string, dir: string) =>
  readFile(path.join(out, root, dir, "index.html"), "utf8");
/** Every card of a shelf, following its pages; checks each page's rel links on the way. */
async function shelfCards(root: string, dir: string) {
  const all: ReturnType<typeof cardsOf> = [];
  const first = await page(root, dir);
  const pages = Number(
    /Página \d+ de (\d+)|Page \d+ of (\d+)|Pàgina \d+ de (\d+)/
      .exec(first)
      ?.slice(1)
      .find(Boolean) ?? 1,
  );
  for (let n = 1; n <= pages; n++) {
    const text = n === 1 ? first : await page(root, `${dir}page/${n}/`);
    all.push(...cardsOf(text));
    const head = text.slice(0, text.indexOf("</head>"));
    expect(head.includes('rel="prev"'), `${root}${dir} ${n}`).toBe(n > 1);
    expect(head.includes('rel="next"'), `${root}${dir} ${n}`).toBe(n < pages);
    if (n > 1) {
      // From `<dir>page/<n>/` back to the site root, then to the page before.
      const up = "../".repeat(dir.split("/").length - 1 + 2);
      expect(head).toContain(
        `<link rel="prev" href="${up}${dir}${n === 2 ? "" : `page/${n - 1}/`}">`,
      );
    }
  }
  return { pages, cards: all };
}

const decadeOf = (year: number) => year - (year % 10);
const byFrom = (a: Expected, b: Expected) => dayNumber(b.from) - dayNumber(a.from);
const byUntil = (a: Expected, b: Expected) => dayNumber(a.until!) - dayNumber(b.until!);

describe("the browse pages", () => {
  it.each(VERSIONS)(
    "$root: each decade's works in the version's name order, 20 a page",
    async ({ host, root, lang }) => {
      const works = versionOrder(expected.get(host)!, lang);
      const decades = [
        ...new Set(works.filter((w) => w.year !== null).map((w) => decadeOf(w.year!))),
      ].sort();
      expect(decades.length).toBeGreaterThan(8);
      const index = await page(root, "decade/");
      const linked = [...index.matchAll(/<li><a href="\.\.\/decade\/(\d{4})\/">/g)].map((m) =>
        Number(m[1]),
      );
      expect(linked).toEqual(decades);
      for (const decade of decades) {
        const inDecade = works.filter((w) => w.year !== null && decadeOf(w.year) === decade);
        const { pages, cards } = await shelfCards(root, `decade/${decade}/`);
        expect(pages).toBe(Math.ceil(inDecade.length / 20));
        expect(
          cards.map((c) => c.id),
          `${root}decade/${decade}/`,
        ).toEqual(inDecade.map((w) => w.id));
        expect(cards.map((c) => c.title)).toEqual(inDecade.map((w) => shownTitle(w, lang)));
        expect(cards.map((c) => c.leaving)).toEqual(inDecade.map((w) => w.isLeaving));
      }
      // Works without a year are on no decade page.
      const yearless = works.filter((w) => w.year === null).map((w) => w.id);
      expect(yearless.length).toBeGreaterThan(0);
    },
  );

  it.each(VERSIONS)(
    "$root: new/ newest first and leaving/ soonest first, ties in the version's name order",
    async ({ host, root, lang }) => {
      const works = versionOrder(expected.get(host)!, lang);
      const news = works.filter((w) => w.isNew).sort(byFrom);
      const leaving = works.filter((w) => w.isLeaving).sort(byUntil);
      const shownNew = await shelfCards(root, "new/");
      expect(shownNew.cards.map((c) => c.id)).toEqual(news.map((w) => w.id));
      expect(shownNew.pages).toBe(Math.max(1, Math.ceil(news.length / 20)));
      const shownLeaving = await shelfCards(root, "leaving/");
      expect(shownLeaving.cards.map((c) => c.id)).toEqual(leaving.map((w) => w.id));
      expect(shownLeaving.cards.every((c) => c.leaving)).toBe(true);
    },
  );

  it("has leaving works at the edges in domain 1 and says so when none leaves in domain 2", async () => {
    const works = expected.get("domain-1.example")!;
    const untils = works.filter((w) => w.isLeaving).map((w) => dayNumber(w.until!) - dayNumber(T));
    expect(untils).toContain(0);
    expect(untils).toContain(29);
    expect(
      works.some(
        (w) => w.until !== null && dayNumber(w.until) - dayNumber(T) === 30 && !w.isLeaving,
      ),
    ).toBe(true);
    const leaving = await page("domain-2.example/cataleg/", "leaving/");
    expect(cardsOf(leaving)).toEqual([]);
    expect(leaving).toContain("No work leaves the catalogue in the next 0 days.");
    const leavingDay = await page("domain-1.example/", "leaving/");
    expect(leavingDay).toMatch(
      /<span class="card-meta card-until">Hasta el 20 de noviembre de 2026<\/span>/,
    );
  });

  it("links the browse pages from every page's header, the current one marked", async () => {
    const home = await page("domain-1.example/en/", "");
    expect(home).toContain(
      '<nav class="browse" aria-label="Browse"><ul><li><a href="new/">New arrivals</a></li><li><a href="leaving/">Last chance to watch</a></li><li><a href="decade/">By decade</a></li></ul></nav>',
    );
    const decades = await page("domain-1.example/ca/", "decade/");
    expect(decades).toContain('<a href="../decade/" aria-current="page">Per dècades</a>');
    const work = expected.get("domain-2.example")![0]!;
    const workPage = await page(
      "domain-2.example/cataleg/",
      `audiovisual-detail/${work.id}/obra-${work.id}/`,
    );
    expect(workPage).toContain('<li><a href="../../../new/">New arrivals</a></li>');
  });

  it("lists every browse page in the sitemap with its alternates, under the base path", async () => {
    const sitemap = await readFile(path.join(out, "domain-1.example/sitemap.xml"), "utf8");
    const works = expected.get("domain-1.example")!;
    const decade = decadeOf(works.find((w) => w.year !== null)!.year!);
    for (const dir of ["decade/", `decade/${decade}/`, "new/", "leaving/"]) {
      const entry = new RegExp(
        `<url><loc>https://domain-1\\.example/${dir}</loc>(.*?)</url>`,
        "s",
      ).exec(sitemap);
      expect(entry, dir).not.toBeNull();
      expect(entry![1]).toContain(`hreflang="en" href="https://domain-1.example/en/${dir}"`);
      expect(entry![1]).toContain(`hreflang="ca" href="https://domain-1.example/ca/${dir}"`);
    }
    const second = await readFile(
      path.join(out, "domain-2.example/cataleg/sitemap.xml"),
      "utf8",
    ).catch(() => readFile(path.join(out, "domain-2.example/sitemap.xml"), "utf8"));
    expect(second).toContain("<loc>https://domain-2.example/cataleg/new/</loc>");
    expect(second).toContain("<loc>https://domain-2.example/cataleg/decade/</loc>");
  });
});

describe("titles in every language", () => {
  it("shows name_<lang> on the pages of that language: cards, h1, title, JSON-LD, breadcrumb", async () => {
    const works = expected.get("domain-1.example")!;
    const named = works.filter((w) => Object.keys(w.names).length > 0);
    expect(named.length).toBeGreaterThan(2);
    for (const { root, lang } of VERSIONS.slice(0, 3)) {
      for (const w of named) {
        const slug = `obra-${w.id}`;
        const text = await page(root, `audiovisual-detail/${w.id}/${slug}/`);
        const title = shownTitle(w, lang);
        expect(unescape(/<h1>(.*?)<\/h1>/.exec(text)![1]!), `${root} ${w.id}`).toBe(title);
        expect(unescape(/<title>(.*?) · /.exec(text)![1]!)).toBe(title);
        expect(unescape(/<li aria-current="page">(.*?)<\/li>/.exec(text)![1]!)).toBe(title);
        const ld = JSON.parse(
          /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(text)![1]!,
        ) as {
          "@graph": { "@type": string; name?: string; alternateName?: string | string[] }[];
        };
        const movie = ld["@graph"].find((n) => n["@type"] === "Movie")!;
        expect(movie.name).toBe(title);
        const others = [...new Set([w.name, ...Object.values(w.names)])].filter((t) => t !== title);
        expect([movie.alternateName ?? []].flat()).toEqual(others);
      }
    }
    // Valencian falls back to Catalan, never shown on a Catalan page by itself.
    const nine = works.find((w) => w.id === 9);
    if (nine !== undefined) {
      const ca = await page("domain-1.example/ca/", "audiovisual-detail/9/obra-9/");
      expect(ca).toContain(`<h1>${nine.name}</h1>`);
    }
  });

  it("puts the English title in the English Atom feed and cards of the home page", async () => {
    const works = expected.get("domain-1.example")!;
    expect(works.some((w) => w.isNew && w.names.en !== undefined)).toBe(true);
    const feed = await readFile(path.join(out, "domain-1.example/en/feed.atom"), "utf8");
    for (const w of works.filter((x) => x.isNew))
      expect(feed).toContain(`<title>${shownTitle(w, "en").replace(/&/g, "&amp;")}</title>`);
    // The home page lists each version in the order of the titles it shows.
    for (const { root, lang } of VERSIONS.slice(0, 3)) {
      const home = cardsOf(await page(root, ""));
      const own = versionOrder(works, lang).slice(0, 20);
      expect(home.map((c) => c.title)).toEqual(own.map((w) => shownTitle(w, lang)));
    }
    expect(
      versionOrder(works, "en")
        .slice(0, 20)
        .some((w) => w.names.en !== undefined),
    ).toBe(true);
  });
});

describe("the work page's browsing facts", () => {
  it("names countries and languages in the page's language, and writes their JSON-LD", async () => {
    const es = await page("domain-1.example/", "audiovisual-detail/1/obra-1/");
    expect(es).toContain("<dt>País de producción</dt><dd>España y Francia</dd>");
    expect(es).toContain("<dt>Idiomas del audio</dt><dd>español y catalán (Valenciano)</dd>");
    expect(es).toContain("<dt>Subtítulos</dt><dd>inglés</dd>");
    expect(es).toContain("<dt>Calificación por edades</dt><dd>TP</dd>");
    expect(es).toContain(
      "<dt>Accesibilidad</dt><dd>Audiodescripción y Subtitulado para personas sordas</dd>",
    );
    expect(es).toContain('<span lang="en">A Trip</span>');
    expect(es).toContain('<span lang="fr">Le Voyage</span>');
    const en = await page("domain-1.example/en/", "audiovisual-detail/1/obra-1/");
    expect(en).toContain("<dt>Country of production</dt><dd>Spain and France</dd>");
    const ld = JSON.parse(
      /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(en)![1]!,
    ) as {
      "@graph": Record<string, unknown>[];
    };
    const movie = ld["@graph"].find((n) => n["@type"] === "Movie")!;
    expect(movie).toMatchObject({
      countryOfOrigin: [
        { "@type": "Country", name: "Spain" },
        { "@type": "Country", name: "France" },
      ],
      inLanguage: ["es", "ca-valencia"],
      subtitleLanguage: "en",
      contentRating: "TP",
      accessibilityFeature: ["audioDescription", "captions"],
    });
    const plain = await page("domain-1.example/", "audiovisual-detail/16/obra-16/");
    expect(plain).not.toContain("País de producción");
    expect(plain).not.toContain("Otros títulos");
  });
});

describe("the API and the spreadsheets", () => {
  it("are byte-identical with and without the browsing columns", async () => {
    const bare = await browseContent(path.join(temp.dir, "without"), false);
    const a = path.join(temp.dir, "api-with");
    const b = path.join(temp.dir, "api-without");
    await buildFixture(content, a, { site: false });
    await buildFixture(bare, b, { site: false });
    const [withColumns, without] = await Promise.all([outputFiles(a), outputFiles(b)]);
    // The records of the inputs name the content's digests, which differ by construction; the
    // MARC records show the columns (countries, languages, other titles), the API does not.
    const isMarc = (rel: string) => /\/_api\/export\/[^/]+\.(mrc|xml)$/.test(rel);
    const shown = (files: Record<string, { md5: string }>) =>
      Object.fromEntries(
        Object.entries(files).filter(
          ([rel]) => !rel.startsWith("_catalogue/inputs") && !isMarc(rel),
        ),
      );
    // ... and they do change with them.
    const marc = Object.keys(withColumns).filter(isMarc);
    expect(marc.length).toBeGreaterThan(0);
    expect(marc.some((rel) => withColumns[rel]!.md5 !== without[rel]?.md5)).toBe(true);
    const apiFiles = Object.keys(withColumns).filter(
      (rel) => rel.includes("/_api/") || rel.includes("/api/"),
    );
    expect(apiFiles.length).toBeGreaterThan(20);
    expect(Object.keys(withColumns).some((rel) => rel.endsWith(".xlsx"))).toBe(true);
    expect(shown(withColumns)).toEqual(shown(without));
  }, 240_000);
});
