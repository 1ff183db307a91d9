import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputFiles, tempDir } from "../helpers/catalogue.ts";
import {
  browseContent,
  cardsOf,
  expectedWorks,
  parseCsv,
  versionOrder,
  T,
  type Expected,
} from "./browse-fixture.ts";
import { referenceWorks, shownTitle as refTitle } from "./filters-reference.ts";
import { buildSiteCounted } from "./fixture.ts";

/**
 * Each language version lists the works in the order of the titles it shows: a Spanish domain
 * whose Catalan titles (name_ca) sort otherwise, checked against Intl.Collator over the CSV rows
 * (every page of the four orderings, the decades, the filter panel's positions); the Spanish
 * version keeps its order; renaming a Catalan title rewrites the Catalan pages whose cards
 * changed and, elsewhere, only the work's own pages.
 */

const HOST = "domain-1.example";
/** The versions of domain 1 (browse-fixture.ts): Spanish at the root, English and Catalan. */
const VERSIONS = [
  { prefix: "", lang: "es" },
  { prefix: "ca/", lang: "ca" },
  { prefix: "en/", lang: "en" },
];
const LONG = `La ${"molt ".repeat(58)}llarga pel·lícula`;
/** Catalan titles that sort far from the Spanish ones: punctuation, numbers, accents, repeats. */
const CATALAN: Record<number, string> = {
  1: "«Zeta» entre cometes",
  5: "Àngel de la nit", // one of three "Nosferatu" in Spanish
  4: "Nosferatu", // the same title as in Spanish
  8: "Ai, Carmela!", // "¡Ay, Carmela!" in Spanish
  16: "10 dies",
  17: "9 dies",
  18: "Èxode",
  19: "exode",
  20: "Repetit",
  21: "Repetit",
  23: "Ésser",
  24: '"Cometes" al principi',
  25: LONG,
  26: "Œdip",
};

let temp: { dir: string; cleanup: () => Promise<void> };
let content: string;
let out: string;

beforeAll(async () => {
  temp = await tempDir("catalogue-title-orders-");
  content = await browseContent(temp.dir);
  await writeCatalan(CATALAN);
  out = path.join(temp.dir, "out");
  await buildSiteCounted(content, out);
}, 240_000);
afterAll(() => temp?.cleanup());

/** Writes the name_ca cells of audiovisuals.csv (the others kept). */
async function writeCatalan(titles: Record<number, string>): Promise<void> {
  const file = path.join(content, "audiovisuals.csv");
  const [header, ...rows] = parseCsv(await readFile(file, "utf8"));
  const column = header!.indexOf("name_ca");
  expect(column).toBeGreaterThan(0);
  for (const row of rows) {
    const title = titles[Number(row[0])];
    if (title !== undefined) row[column] = title;
  }
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  await writeFile(file, [header!, ...rows].map((r) => r.map(cell).join(",")).join("\n") + "\n");
}

const read = (rel: string) => readFile(path.join(out, HOST, rel), "utf8");
/** The cards of a paginated list, following its pages (`<dir>page/<n>/`) until one is missing. */
async function listCards(dir: string) {
  const cards = [];
  for (let n = 1; ; n++) {
    const rel = `${dir}${n === 1 ? "" : `page/${n}/`}index.html`;
    const text = await read(rel).catch(() => null);
    if (text === null) break;
    cards.push(...cardsOf(text));
  }
  return cards;
}
const listingDir = (ordering: string) => (ordering === "name" ? "" : `ordering/${ordering}/`);

async function checkVersions(works: Expected[]): Promise<void> {
  for (const { prefix, lang } of VERSIONS) {
    const want = await referenceWorks(content, HOST, T, lang);
    const own = versionOrder(works, lang) !== works;
    expect(want.name.map((w) => w.id)).toEqual(versionOrder(works, lang).map((w) => w.id));
    for (const [ordering, list] of Object.entries(want)) {
      const cards = await listCards(`${prefix}${listingDir(ordering)}`);
      expect(
        cards.map((c) => c.id),
        `${prefix}${ordering}`,
      ).toEqual(list.map((w) => w.id));
      expect(cards.map((c) => c.title)).toEqual(list.map((w) => refTitle(w, lang)));
    }
    // Each decade in the version's name order.
    const decades = new Set(
      works.filter((w) => w.year !== null).map((w) => w.year! - (w.year! % 10)),
    );
    for (const decade of decades) {
      const cards = await listCards(`${prefix}decade/${decade}/`);
      expect(
        cards.map((c) => c.id),
        `${prefix}decade/${decade}/`,
      ).toEqual(
        want.name
          .filter((w) => w.year !== null && w.year - (w.year % 10) === decade)
          .map((w) => w.id),
      );
    }
    // The filter panel's positions are the version's name order; a tie is a title equal to the previous.
    const sandbox = {
      self: {} as { catalogueBrowse: { facets: { ids: number[]; ties: number[] } } },
    };
    runInNewContext(await read(`${prefix}browse/facets.js`), sandbox);
    const facets = sandbox.self.catalogueBrowse.facets;
    expect(facets.ids, `${prefix}browse/facets.js`).toEqual(want.name.map((w) => w.id));
    const collator = new Intl.Collator(own ? lang : "es", {
      sensitivity: "base",
      numeric: true,
    });
    const titles = want.name.map((w) => refTitle(w, lang));
    expect(facets.ties).toEqual(
      titles.flatMap((t, i) => (i > 0 && collator.compare(titles[i - 1]!, t) === 0 ? [i] : [])),
    );
  }
}

describe("the orders of each language version", () => {
  it("lists every version in the order of its own titles: orderings, decades, the panel", async () => {
    const works = await expectedWorks(content, HOST);
    const listed = new Set(works.map((w) => w.id));
    for (const id of Object.keys(CATALAN)) expect(listed.has(Number(id)), id).toBe(true);
    // The Catalan order is not the Spanish one (or this test would prove nothing).
    const ids = (list: Expected[]) => list.map((w) => w.id);
    expect(ids(versionOrder(works, "ca"))).not.toEqual(ids(works));
    expect(ids(versionOrder(works, "es"))).toEqual(ids(works));
    await checkVersions(works);
  });

  it("renames a Catalan title: the Catalan pages whose cards changed, elsewhere the work's pages", async () => {
    const before = await outputFiles(out);
    const beforeCards = new Map<string, string>();
    for (const rel of Object.keys(before))
      if (rel.startsWith(`${HOST}/`) && rel.endsWith(".html"))
        beforeCards.set(rel, JSON.stringify(cardsOf(await readFile(path.join(out, rel), "utf8"))));
    // "Èxode" goes to the end of the Catalan alphabet; its Spanish title stays.
    await writeCatalan({ 18: "Zulu, l'èxode" });
    const again = await buildSiteCounted(content, out);
    const after = await outputFiles(out);
    const changed = Object.keys(after).filter(
      (rel) => rel.endsWith(".html") && after[rel]!.md5 !== before[rel]?.md5,
    );
    // The work's own page shows its other titles, in every version of every domain.
    const ownPage = (rel: string) =>
      rel.includes("/audiovisual-detail/18/") && rel.endsWith(".html");
    const moved: string[] = [];
    for (const rel of beforeCards.keys()) {
      const cards = JSON.stringify(cardsOf(await readFile(path.join(out, rel), "utf8")));
      if (cards !== beforeCards.get(rel)) moved.push(rel);
    }
    // The Catalan listings moved (and only those): the rename re-sorted its version.
    expect(moved.length).toBeGreaterThan(3);
    expect(
      moved.every((rel) => rel.startsWith(`${HOST}/ca/`)),
      moved.join(" "),
    ).toBe(true);
    expect(changed.sort()).toEqual(
      [...new Set([...moved, ...Object.keys(after).filter(ownPage)])].sort(),
    );
    expect(again.toRender).toBe(changed.length);
    await checkVersions(await expectedWorks(content, HOST));
    // The same content built from scratch gives the same bytes.
    const fresh = path.join(temp.dir, "fresh");
    await buildSiteCounted(content, fresh);
    expect(await outputFiles(fresh)).toEqual(after);
  }, 240_000);
});
