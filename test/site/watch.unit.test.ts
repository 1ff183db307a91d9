import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkContent } from "../../src/content/load.ts";
import { formatProblem, sortProblems } from "../../src/errors.ts";
import { stringsOf } from "../../src/web/i18n.ts";
import { watchUrl } from "../../src/site/model.ts";
import { outputFiles, tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";
import { buildSiteCounted } from "./fixture.ts";

/**
 * Synopses and the link to watch or borrow, built: a Catalan domain also in Spanish and English
 * with a `watch_url`, and an English one without. Expected texts come from the CSV cells written
 * here and from i18n/*.json, never from the templates.
 */

type Files = Record<string, { size: number; md5: string }>;

const CA =
  "Uns astrònoms viatgen a la Lluna dins d'una càpsula disparada per un canó. Allà troben els selenites i tornen a la Terra.";
const ES_FIRST =
  "Un congreso de astrónomos viaja a la Luna dentro de una cápsula disparada por un cañón gigante.";
const ES = `${ES_FIRST} Allí los sabios, perseguidos por los selenitas que habitan bajo la superficie lunar, escapan como pueden y regresan a la Tierra, donde se les recibe como a héroes.\n\nLa película, de catorce minutos, es una de las primeras del cine fantástico.`;
// Untagged, with markup and quotes that must stay text.
const UNTAGGED = `Una mujer cultiva niños en un huerto de coles <script>alert("x")</script> & "comillas".`;
const TEMPLATE = "https://films.example.org/obra/{id}/{slug}?from=llevant&x=1";

const csvCell = (text: string) => `"${text.replace(/"/g, '""')}"`;
const DOMAINS =
  "domain,name,locale,default_ordering,languages,watch_url\n" +
  `uno.example,Uno,ca,name,es en,${TEMPLATE}\n` +
  "dos.example,Dos,en,-year,,\n";
/** The same works without the synopsis columns. */
const PLAIN =
  "id,name,slug,audiovisual_type,director_id,year,duration,cover\n" +
  "10,Viaje a la Luna,viaje-a-la-luna,cortometrajes,1,1902,14,covers/a.png\n" +
  "11,La fée aux choux,la-fee-aux-choux,peliculas,2,1896,1,covers/b.png\n" +
  "12,Élan,elan,,,,,covers/a.png\n";
const works = (es: string) =>
  "id,name,slug,audiovisual_type,director_id,year,duration,cover,synopsis,synopsis_es,synopsis_ca\n" +
  `10,Viaje a la Luna,viaje-a-la-luna,cortometrajes,1,1902,14,covers/a.png,,${csvCell(es)},${csvCell(CA)}\n` +
  `11,La fée aux choux,la-fee-aux-choux,peliculas,2,1896,1,covers/b.png,${csvCell(UNTAGGED)},,\n` +
  "12,Élan,elan,,,,,covers/a.png,,,\n";

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;
let first: Files;

const read = (rel: string) => readFile(path.join(out, rel), "utf8");
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const meta = (html: string, name: string) => {
  const found = new RegExp(`<meta (?:name|property)="${name}" content="([^"]*)">`).exec(html);
  return found === null ? undefined : decode(found[1]!);
};
const movie = (html: string) => {
  const json = JSON.parse(/<script type="application\/ld\+json">([^]*?)<\/script>/.exec(html)![1]!);
  return json["@graph"].find((node: { "@type": string }) => node["@type"] === "Movie");
};
const synopsisSection = (html: string) =>
  /<section class="synopsis"[^>]*>([^]*?)<\/section>/.exec(html)?.[1];
const WORK = "audiovisual-detail/10/viaje-a-la-luna/index.html";

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-watch-"));
  content = await writeContent(path.join(dir, "content"), {
    domains: DOMAINS,
    audiovisuals: works(ES),
  });
  out = path.join(dir, "out");
  await buildSiteCounted(content, out);
  first = await outputFiles(out);
}, 120_000);
afterAll(() => cleanup());

describe("a work's synopsis", () => {
  it("is shown in the page's language, falling back as biographies do, marked when in another", async () => {
    const ca = synopsisSection(await read(`uno.example/${WORK}`))!;
    expect(ca).toContain(`<h2 id="synopsis-title">${stringsOf("ca").format("work.synopsis")}</h2>`);
    expect(ca).toContain(`<p>${CA.replace(/'/g, "&#39;")}</p>`);
    const es = synopsisSection(await read(`uno.example/es/${WORK}`))!;
    // Two paragraphs, as in the cell.
    expect(es).toContain(`<p>${ES.split("\n\n")[0]}</p>`);
    expect(es).toContain(`<p>${ES.split("\n\n")[1]}</p>`);
    // No English synopsis: the Spanish one, in Spanish.
    expect(synopsisSection(await read(`uno.example/en/${WORK}`))).toContain(
      `<p lang="es">${ES_FIRST}`,
    );
    expect(
      synopsisSection(await read("uno.example/audiovisual-detail/12/elan/index.html")),
    ).toBeUndefined();
  });

  it("describes the page in its language: meta, Open Graph and JSON-LD alike, whole sentences", async () => {
    const ca = await read(`uno.example/${WORK}`);
    expect(meta(ca, "description")).toBe(CA);
    expect(meta(ca, "og:description")).toBe(CA);
    expect(movie(ca).description).toBe(CA);
    // The first paragraph is longer than a description: its sentences that fit, whole.
    const es = await read(`uno.example/es/${WORK}`);
    expect(meta(es, "description")).toBe(ES_FIRST);
    expect(movie(es).description).toBe(ES_FIRST);
    // A synopsis in another language than the page's does not describe it.
    const en = await read(`uno.example/en/${WORK}`);
    expect(meta(en, "description")).not.toContain(ES_FIRST);
    expect(meta(en, "description")).toContain("Viaje a la Luna");
    expect(movie(en).description).toBeUndefined();
  });

  it("stays text: markup and quotes in a synopsis are escaped in the page, the head and the JSON-LD", async () => {
    const html = await read("uno.example/audiovisual-detail/11/la-fee-aux-choux/index.html");
    expect(html).not.toContain("<script>alert");
    expect(synopsisSection(html)).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;comillas&quot;",
    );
    expect(meta(html, "description")).toBe(UNTAGGED);
    expect(movie(html).description).toBe(UNTAGGED);
    expect(html.match(/<\/script>/g)).toHaveLength(1); // the search script's only
  });

  it("leaves the API and the spreadsheets as they are without synopses", async () => {
    const without = await writeContent(path.join(dir, "without"), {
      domains: DOMAINS,
      audiovisuals: PLAIN,
    });
    const other = path.join(dir, "out-without");
    await buildSiteCounted(without, other);
    const data = (files: Files) =>
      Object.entries(files)
        // The API and the spreadsheets (the MARC records beside them show the link: 856).
        .filter(([rel]) => /\/(_api|api)\/|\.xlsx$/.test(rel) && !/\.(mrc|xml)$/.test(rel))
        .map(([rel, f]) => `${rel} ${f.md5}`);
    const theirs = data(await outputFiles(other));
    expect(theirs.length).toBeGreaterThan(10);
    expect(data(first)).toEqual(theirs);
  });
});

describe("the link to watch or borrow", () => {
  it("is on every work page of a domain with watch_url, in its language, values URL-encoded", async () => {
    for (const [prefix, lang] of [
      ["", "ca"],
      ["es/", "es"],
      ["en/", "en"],
    ] as const) {
      const html = await read(`uno.example/${prefix}${WORK}`);
      const url = "https://films.example.org/obra/10/viaje-a-la-luna?from=llevant&x=1";
      expect(html).toContain(
        `<p class="watch"><a href="${url.replace("&", "&amp;")}">${stringsOf(lang).format("work.watch")}</a></p>`,
      );
      expect(movie(html).potentialAction).toEqual({
        "@type": "WatchAction",
        target: { "@type": "EntryPoint", urlTemplate: url },
      });
    }
    expect(await read("uno.example/audiovisual-detail/12/elan/index.html")).toContain(
      'href="https://films.example.org/obra/12/elan?from=llevant&amp;x=1"',
    );
    // The other domain has none.
    const other = await read(`dos.example/${WORK}`);
    expect(other).not.toContain('class="watch"');
    expect(movie(other).potentialAction).toBeUndefined();
    expect(
      watchUrl("https://x.example/w/{slug}?id={id}&again={id}", { id: 7, slug: "é/x y" }),
    ).toBe("https://x.example/w/%C3%A9%2Fx%20y?id=7&again=7");
  });

  it("comes from a template checked at its line: absolute http(s), {id} or {slug}, no other placeholder", async () => {
    const bad = await writeContent(path.join(dir, "bad"), {
      domains:
        "domain,name,watch_url\n" +
        "a.example,A,ftp://films.example.org/{id}\n" +
        "b.example,B,https://films.example.org/{name}\n" +
        "c.example,C,https://films.example.org/watch\n" +
        "d.example,D,https://{slug}.example.org/\n" +
        "e.example,E,/obra/{id}\n" +
        "f.example,F,https://films.example.org/{id/\n" +
        "g.example,G,http://films.example.org/w?id={id}#{slug}\n",
      availability: "audiovisual_id,domain,available_from\n",
    });
    const check = await checkContent(bad);
    expect(check.catalogue).toBeNull();
    const shown = sortProblems(check.problems).map((p) =>
      formatProblem(p).replaceAll(bad, "content"),
    );
    expect(shown).toEqual([
      'content/domains.csv:2: watch_url: expected an absolute http(s) URL without credentials, got "ftp://films.example.org/{id}"',
      'content/domains.csv:3: watch_url: unknown placeholder {name}: use {id} and {slug}, got "https://films.example.org/{name}"',
      'content/domains.csv:4: watch_url: expected {id} or {slug} in the URL, so that each work links to its own page, got "https://films.example.org/watch"',
      'content/domains.csv:5: watch_url: placeholders belong in the path or the query, not in the host, got "https://{slug}.example.org/"',
      'content/domains.csv:6: watch_url: expected an absolute http(s) URL like "https://films.example.org/watch/{id}/{slug}", got "/obra/{id}"',
      'content/domains.csv:7: watch_url: expected {id} or {slug} in the URL, so that each work links to its own page, got "https://films.example.org/{id/"',
    ]);
  });
});

describe("a rebuild after a synopsis changes", () => {
  it("rewrites only the work pages that show it, in each language, and nothing else", async () => {
    const file = path.join(content, "audiovisuals.csv");
    await writeFile(file, works(ES.replace("gigante", "enorme")));
    const build = await buildSiteCounted(content, out);
    const after = await outputFiles(out);
    const changed = Object.keys({ ...first, ...after }).filter(
      (rel) =>
        first[rel]?.md5 !== after[rel]?.md5 &&
        !rel.startsWith("_catalogue/") &&
        // The MARC records show the synopsis too (520): test/marc checks which are rewritten.
        !/\/_api\/export\/[^/]+\.(mrc|xml)$/.test(rel),
    );
    // The Spanish synopsis shows on the Spanish page and, by the fallback, on the English pages of
    // both domains; the Catalan page shows the Catalan one.
    expect(changed.sort()).toEqual([
      `dos.example/${WORK}`,
      `uno.example/en/${WORK}`,
      `uno.example/es/${WORK}`,
    ]);
    expect(build.toRender).toBe(3);
    expect(await read(`uno.example/es/${WORK}`)).toContain("cañón enorme");
  });

  it("re-renders only the domain's work pages when its watch_url changes", async () => {
    const before = await outputFiles(out);
    await writeFile(
      path.join(content, "domains.csv"),
      DOMAINS.replace("/obra/{id}/{slug}", "/prestec/{id}"),
    );
    const build = await buildSiteCounted(content, out);
    const after = await outputFiles(out);
    const changed = Object.keys(after).filter(
      (rel) => before[rel]?.md5 !== after[rel]?.md5 && rel.endsWith(".html"),
    );
    const workPages = Object.keys(after).filter((rel) =>
      /^uno\.example\/(es\/|en\/)?audiovisual-detail\//.test(rel),
    );
    expect(workPages).toHaveLength(9); // three works in three languages
    expect(changed.sort()).toEqual(workPages.sort());
    expect(build.toRender).toBe(workPages.length);
    expect(await read(`uno.example/${WORK}`)).toContain(
      'href="https://films.example.org/prestec/10?from=llevant&amp;x=1"',
    );
  });
});
