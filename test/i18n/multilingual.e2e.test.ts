import { access, cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkContent, loadCatalogue } from "../../src/content/load.ts";
import { formatProblem, sortProblems } from "../../src/errors.ts";
import { domainView, type DomainView } from "../../src/model/domain-view.ts";
import { buildFixture, generatedContent, outputFiles, tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";
import type { Language } from "../../src/content/schema.ts";
import { stringsOf } from "../../src/web/i18n.ts";
import { buildSiteCounted } from "../site/fixture.ts";

/**
 * A domain in four languages: locale `ca`, `languages` `es en va`, its name translated for `es`
 * and `va`. The other domain stays in one language. The same content without the `languages`
 * column is built beside it, to compare what must not change.
 */

type Files = Record<string, { size: number; md5: string }>;

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let single: string;
let out: string;
let outSingle: string;
let view: DomainView;
let first: Files;

const ROOT = "domain-1.example/";
const VERSIONS = [
  { prefix: "", lang: "ca", hreflang: "ca" },
  { prefix: "es/", lang: "es", hreflang: "es" },
  { prefix: "en/", lang: "en", hreflang: "en" },
  { prefix: "va/", lang: "ca-valencia", hreflang: null },
];
const BASE = "https://domain-1.example/";

async function setLanguages(folder: string, languages: boolean) {
  const file = path.join(folder, "domains.csv");
  const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
  lines[0] += ",languages,name_es,name_va";
  lines[1] =
    lines[1]!.replace(",es,", ",ca,") +
    (languages
      ? ",es en va,Red de bibliotecas de Levante,Xarxa de biblioteques de Llevant"
      : ",,,");
  for (let i = 2; i < lines.length; i++) lines[i] += ",,,";
  await writeFile(file, lines.join("\n") + "\n");
}

const read = (rel: string) => readFile(path.join(out, rel), "utf8");
const exists = (rel: string) =>
  access(path.join(out, rel)).then(
    () => true,
    () => false,
  );
/** What a file of the browse index assigns (it is a classic script). */
async function browseData(rel: string, name: string): Promise<unknown> {
  const self: { catalogueBrowse?: Record<string, unknown> } = {};
  runInNewContext(await read(rel), { self });
  return self.catalogueBrowse?.[name];
}
const alternates = (html: string) =>
  [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)]
    .map((m) => `${m[1]} ${m[2]}`)
    .sort();

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-multilingual-"));
  content = await generatedContent(dir, { works: 30, domains: 2 });
  single = path.join(dir, "single");
  await cp(content, single, { recursive: true });
  await setLanguages(content, true);
  await setLanguages(single, false);
  out = path.join(dir, "out");
  outSingle = path.join(dir, "out-single");
  await buildSiteCounted(content, out);
  await buildSiteCounted(single, outSingle);
  first = await outputFiles(out);
  const catalogue = await loadCatalogue(content, () => {});
  view = domainView(catalogue, catalogue.domains[0]!, "2026-11-20");
});
afterAll(() => cleanup());

describe("a domain in several languages", () => {
  it("keeps the locale's URLs and puts each other language's pages under its folder, in its words", async () => {
    const { work } = view.orders.name[0]!;
    const dirOf = `audiovisual-detail/${work.id}/${work.slug}/`;
    for (const v of VERSIONS) {
      const page = await read(`${ROOT}${v.prefix}${dirOf}index.html`);
      expect(page).toContain(`<html lang="${v.lang}">`);
      expect(await exists(`${ROOT}${v.prefix}404.html`)).toBe(true);
      expect(await exists(`${ROOT}${v.prefix}feed.atom`)).toBe(true);
      expect(await exists(`${ROOT}${v.prefix}browse/search.js`)).toBe(true);
      expect(await exists(`${ROOT}${v.prefix}pagefind`)).toBe(false);
    }
    // The names: translated where the CSV says, the locale's elsewhere.
    expect(await read(`${ROOT}es/index.html`)).toContain(
      '<a class="brand" href="./">Red de bibliotecas de Levante</a>',
    );
    expect(await read(`${ROOT}va/index.html`)).toContain(
      '<a class="brand" href="./">Xarxa de biblioteques de Llevant</a>',
    );
    expect(await read(`${ROOT}en/index.html`)).toContain(
      '<a class="brand" href="./">Red de bibliotecas 1</a>',
    );
    // One sitemap and robots.txt per domain, at the locale's root.
    expect(await exists(`${ROOT}es/sitemap.xml`)).toBe(false);
    // The other domain, in one language, has no version folder, switcher or alternate.
    const other = await read("domain-2.example/index.html");
    expect(other).not.toContain('class="languages"');
    expect(alternates(other)).toEqual([]);
  });

  it("links every version of a page from each of them: absolute, reciprocal, with x-default", async () => {
    for (const listed of view.orders.name.slice(0, 3)) {
      const dirOf = `audiovisual-detail/${listed.work.id}/${listed.work.slug}/`;
      const expected = [
        ...VERSIONS.filter((v) => v.hreflang !== null).map(
          (v) => `${v.hreflang} ${BASE}${v.prefix}${dirOf}`,
        ),
        `x-default ${BASE}${dirOf}`,
      ].sort();
      for (const v of VERSIONS)
        expect(alternates(await read(`${ROOT}${v.prefix}${dirOf}index.html`)), v.lang).toEqual(
          expected,
        );
    }
  });

  it("shows a switcher whose links lead to the same page in the other languages", async () => {
    const listed = view.orders.name.find((l) => l.director !== null)!;
    const pages = [
      "",
      "page/2/",
      `audiovisual-detail/${listed.work.id}/${listed.work.slug}/`,
      `director/${listed.director!.slug}/`,
    ];
    for (const dirOf of pages) {
      for (const v of VERSIONS) {
        const rel = `${ROOT}${v.prefix}${dirOf}index.html`;
        const nav = /<nav class="languages" aria-label="[^"]+"><ul>(.*?)<\/ul><\/nav>/.exec(
          await read(rel),
        )![1]!;
        const links = [...nav.matchAll(/<a href="([^"]+)" hreflang="([^"]+)" lang="([^"]+)">/g)];
        expect(links.map((m) => m[3]).sort(), rel).toEqual(
          VERSIONS.filter((o) => o !== v)
            .map((o) => o.lang)
            .sort(),
        );
        expect(nav).toContain(`<span lang="${v.lang}" aria-current="true">`);
        for (const [, href, hreflang, lang] of links) {
          expect(hreflang).toBe(lang);
          const target = VERSIONS.find((o) => o.lang === lang)!;
          const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(rel), href!));
          expect(`${resolved}/`.replace(/\/+$/, "/"), `${rel} → ${href}`).toBe(
            `${ROOT}${target.prefix}${dirOf}`.replace(/\/$/, "/") || ROOT,
          );
        }
      }
    }
  });

  it("lists every version's pages in one sitemap, each with its alternates", async () => {
    const sitemap = await read(`${ROOT}sitemap.xml`);
    expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const { work } = view.orders.name[0]!;
    const dirOf = `audiovisual-detail/${work.id}/${work.slug}/`;
    for (const v of VERSIONS) {
      const entry = new RegExp(`<url><loc>${BASE}${v.prefix}${dirOf}</loc>(.*?)</url>`).exec(
        sitemap,
      );
      expect(entry, v.lang).not.toBeNull();
      const links = [
        ...entry![1]!.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g),
      ]
        .map((m) => `${m[1]} ${m[2]}`)
        .sort();
      expect(links).toEqual(alternates(await read(`${ROOT}${v.prefix}${dirOf}index.html`)));
    }
    const locs = [...sitemap.matchAll(/<loc>/g)].length;
    const single = [
      ...(await readFile(path.join(outSingle, ROOT, "sitemap.xml"), "utf8")).matchAll(/<loc>/g),
    ].length;
    expect(locs).toBe(single * VERSIONS.length);
  });

  it("gives each language its own feed and browse index, in its language", async () => {
    for (const v of VERSIONS) {
      const feed = await read(`${ROOT}${v.prefix}feed.atom`);
      expect(feed).toContain(`xml:lang="${v.lang}"`);
      expect(feed).toContain(`<id>${BASE}${v.prefix}feed.atom</id>`);
      // Entries are the works' API URLs: one API for every version.
      for (const id of feed.matchAll(/<entry>[^]*?<id>([^<]+)<\/id>/g))
        expect(id[1]).toMatch(
          /^https:\/\/domain-1\.example\/api\/v1\/videos\/audiovisuals\/\d+\/$/,
        );
      const labels = (await browseData(`${ROOT}${v.prefix}browse/labels.js`, "labels")) as {
        lang: string;
        texts: Record<string, unknown>;
      };
      expect(labels.lang).toBe(v.lang);
      const code = (v.prefix === "" ? "ca" : v.prefix.slice(0, -1)) as Language;
      expect(labels.texts["search.none"]).toBe(stringsOf(code).format("search.none"));
    }
  });

  it("shows biographies in the page's language, with the fallback", async () => {
    const listed = view.orders.name.find(
      (l) => l.director?.description_en && l.director.description_es,
    )!;
    const director = listed.director!;
    const page = (prefix: string) => read(`${ROOT}${prefix}director/${director.slug}/index.html`);
    const firstWords = (text: string) => text.split(" ").slice(0, 4).join(" ");
    expect(await page("en/")).toContain(`<p>${firstWords(director.description_en!)}`);
    expect(await page("es/")).toContain(`<p>${firstWords(director.description_es!)}`);
    // No Catalan or Valencian biography: Spanish, marked as such.
    expect(await page("")).toContain(`<p lang="es">${firstWords(director.description_es!)}`);
    expect(await page("va/")).toContain(`<p lang="es">${firstWords(director.description_es!)}`);
  });

  it("leaves the API and the spreadsheets as they are in one language", async () => {
    const multi = first;
    const one = await outputFiles(outSingle);
    const api = (files: Files) =>
      Object.entries(files)
        .filter(([rel]) => /^domain-1\.example\/(_api|api)\//.test(rel))
        .map(([rel, f]) => `${rel} ${f.md5}`);
    expect(api(multi).length).toBeGreaterThan(30);
    expect(api(multi)).toEqual(api(one));
  });
});

describe("a rebuild of a domain in several languages", () => {
  it("writes nothing when nothing changed", async () => {
    const again = await buildFixture(content, out, { site: true });
    expect(again.written).toBe(0);
    expect(await outputFiles(out)).toEqual(first);
  });

  it("after a rename, rewrites in each language only the pages that show the title", async () => {
    const listed = view.orders.name.find(
      (l) => l.director !== null && l.work.audiovisual_type !== null && !l.isNew,
    )!;
    const { work } = listed;
    const file = path.join(content, "audiovisuals.csv");
    const csv = await readFile(file, "utf8");
    // A new title that keeps the work's place in name order.
    await writeFile(
      file,
      csv.replace(`\n${work.id},${work.name},`, `\n${work.id},${work.name} (restaurada),`),
    );
    const again = await buildSiteCounted(content, out);
    const after = await outputFiles(out);
    const changed = Object.keys(after).filter(
      (rel) => after[rel]!.md5 !== first[rel]?.md5 && rel.startsWith(ROOT) && rel.endsWith(".html"),
    );
    const inVersion = (v: (typeof VERSIONS)[number]) =>
      changed
        .filter(
          (rel) =>
            rel.startsWith(ROOT + v.prefix) &&
            !VERSIONS.some((o) => o.prefix !== "" && o !== v && rel.startsWith(ROOT + o.prefix)),
        )
        .map((rel) => rel.slice(ROOT.length + v.prefix.length))
        .sort();
    const expected = inVersion(VERSIONS[0]!);
    expect(expected).toContain(`audiovisual-detail/${work.id}/${work.slug}/index.html`);
    expect(expected).toContain(`director/${listed.director!.slug}/index.html`);
    expect(expected).not.toContain("404.html");
    // Far fewer than the site's pages, and the same ones in every language.
    expect(expected.length).toBeLessThan(
      Object.keys(first).filter((rel) => rel.startsWith(ROOT) && rel.endsWith(".html")).length /
        VERSIONS.length /
        4,
    );
    for (const v of VERSIONS) expect(inVersion(v), v.lang).toEqual(expected);
    expect(again.toRender).toBe(
      changed.length +
        Object.keys(after).filter(
          (rel) =>
            rel.startsWith("domain-2.example/") &&
            rel.endsWith(".html") &&
            after[rel]!.md5 !== first[rel]?.md5,
        ).length,
    );
  });
});

describe("the languages column", () => {
  it("rejects a tag that is not one, a language listed twice or the locale's, at its line; warns of one outside the seven", async () => {
    const content = await writeContent(path.join(dir, "bad"), {
      domains:
        "domain,name,locale,languages\n" +
        "uno.example,Uno,ca,es en_GB\n" +
        "dos.example,Dos,ca,es ES\n" +
        "tres.example,Tres,ca-ES,ca en\n" +
        "cuatro.example,Cuatro,es,de va\n",
      availability: "audiovisual_id,domain,available_from\n",
    });
    const check = await checkContent(content);
    const shown = (problems: typeof check.problems) =>
      sortProblems(problems).map((p) => formatProblem(p).replaceAll(content, "content"));
    expect(check.catalogue).toBeNull();
    expect(shown(check.problems)).toEqual([
      'content/domains.csv:2: languages: expected language tags like "es" or "en-GB" separated by spaces, got "en_GB"',
      'content/domains.csv:3: languages: "es" is the same language as "es": list each other language once, without the locale\'s',
      'content/domains.csv:4: languages: "ca" is the same language as the locale "ca-ES": list each other language once, without the locale\'s',
    ]);
    expect(shown(check.warnings)).toEqual([
      'content/domains.csv:5: languages: no interface in "de": its pages use the Spanish one (interfaces: es, en, ca, gl, eu, va, fr; a region may follow, as in "es-ES")',
    ]);
  });
});
