import { AUDIOVISUAL_TYPES } from "../content/schema.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import { titleCollator } from "../model/order.ts";
import { md5 } from "../util/hash.ts";
import { ACCESSIBILITY_FEATURES } from "../content/browse-columns.ts";
import type { Variants } from "./image-variants.ts";
import type { DomainSite } from "./model.ts";
import { titleIn, versionOrders } from "./titles.ts";
import { browseLabels } from "./browse-labels.ts";

/**
 * The filter panel's and the search box's index of one language version (docs/site.md#search):
 * classic scripts that assign to `self.catalogueBrowse[name]`, so that a `<script src>` loads them
 * from a server under `script-src 'self'` and from file:// alike (fetch() and import() are refused
 * there). Under `<version root>browse/`:
 *
 * - `facets.js`: the listed works in the version's name order (versionOrders: a work's position is
 *   its place there), each facet's values and one column per facet; loaded when the panel opens;
 * - `directors.js`: the directors in collation order and each position's director;
 * - `search.js`: every title of each position's work (all its languages), for the search box;
 * - `cards/<k>.js`: the card data (title in the version's language, cover variants, director,
 *   year) of the works whose id is k modulo the chunk count: a one-work rename changes one chunk;
 * - `labels.js`: the version's texts and value names.
 */
export const BROWSE_DIR = "browse/";
/** Works per card chunk, about: the chunk count is a power of two, so a work changes chunk only when the domain doubles or halves. */
const WORKS_PER_CHUNK = 64;

/** A file of the index: its path below the version's root, its text and its key. */
export interface BrowseFile {
  rel: string;
  text: string;
  key: string;
}

/** `self.catalogueBrowse[name] = value`, as a JSON string parsed (faster than the same literal as code). */
export function browseScript(name: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/['\\\u2028\u2029]/g, (c) =>
    c === "'" || c === "\\" ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16)}`,
  );
  return `(self.catalogueBrowse||(self.catalogueBrowse={}))[${JSON.stringify(name)}]=JSON.parse('${json}');\n`;
}

/** The power of two of chunks for n works. */
export function chunkCount(n: number): number {
  let chunks = 1;
  while (chunks * WORKS_PER_CHUNK < n) chunks *= 2;
  return chunks;
}

/** Value table of a facet: every value some work has, sorted. */
function table(works: readonly ListedWork[], pick: (l: ListedWork) => readonly string[]): string[] {
  const seen = new Set<string>();
  for (const l of works) for (const v of pick(l)) seen.add(v);
  return [...seen].sort();
}

/** A multi-valued column: a bit mask when the facet has at most 31 values, else 0, v+1 or [v+1, …]. */
function multi(
  works: readonly ListedWork[],
  values: readonly string[],
  pick: (l: ListedWork) => readonly string[],
): (number | number[])[] {
  const index = new Map(values.map((v, i) => [v, i]));
  if (values.length <= 31)
    return works.map((l) => pick(l).reduce((mask, v) => mask | (1 << index.get(v)!), 0));
  return works.map((l) => {
    const codes = pick(l).map((v) => index.get(v)! + 1);
    return codes.length === 0 ? 0 : codes.length === 1 ? codes[0]! : codes;
  });
}

const countries = (l: ListedWork) => l.work.browse?.countries ?? [];
const audio = (l: ListedWork) => l.work.browse?.audio ?? [];
const subtitles = (l: ListedWork) => l.work.browse?.subtitles ?? [];
const age = (l: ListedWork) => (l.work.browse?.age === undefined ? [] : [l.work.browse.age]);
const categories = (l: ListedWork) =>
  l.work.audiovisual_type === null ? [] : [l.work.audiovisual_type];

/** The index's files of one version of a domain's site. */
export function browseFiles(site: DomainSite, view: DomainView): BrowseFile[] {
  // Positions in the version's own name order: the panel's four orderings follow its titles.
  const orders = versionOrders(view, site.strings.code);
  const works = orders.name;
  const lang = site.strings.lang;
  const chunks = chunkCount(works.length);
  const values = {
    category: AUDIOVISUAL_TYPES.filter((t) => works.some((l) => l.work.audiovisual_type === t)),
    country: table(works, countries),
    audio: table(works, audio),
    subtitles: table(works, subtitles),
    age: table(works, age),
    accessibility: ACCESSIBILITY_FEATURES.filter((f) =>
      works.some((l) => l.work.browse?.accessibility?.includes(f)),
    ),
  };
  const ranks = new Map(orders["-name"].map((l, i) => [l, i]));
  const facets = {
    v: 1,
    n: works.length,
    chunks,
    values,
    ids: works.map((l) => l.work.id),
    year: works.map((l) => (l.work.year === null ? 0 : l.work.year)),
    category: multi(works, values.category, categories),
    country: multi(works, values.country, countries),
    audio: multi(works, values.audio, audio),
    subtitles: multi(works, values.subtitles, subtitles),
    age: multi(works, values.age, age),
    accessibility: multi(works, values.accessibility, (l) => l.work.browse?.accessibility ?? []),
    new: positions(works, (l) => l.isNew),
    leaving: positions(works, (l) => l.isLeaving),
    // Where a work ties with the one before it in the collation (the -name order keeps ties by id):
    // read from the version's own -name order, so the browser needs no collator.
    ties: positions(works, (l, i) => i > 0 && ranks.get(l)! === ranks.get(works[i - 1]!)! + 1),
  };
  const directorIndex = new Map<string, number>();
  const directorList: [string, string][] = [];
  const named = works.filter((l) => l.director !== null).map((l) => l.director!);
  const collator = titleCollator(lang);
  const sorted = [...new Set(named)].sort(
    (a, b) => collator.compare(a.name, b.name) || (a.slug < b.slug ? -1 : 1),
  );
  for (const d of sorted) {
    directorIndex.set(d.slug, directorList.length);
    directorList.push([d.slug, d.name]);
  }
  const directors = {
    directors: directorList,
    director: works.map((l) => (l.director === null ? 0 : directorIndex.get(l.director.slug)! + 1)),
  };
  const search = works.map((l) => allTitles(l).join("\n"));
  const cardChunks: unknown[][] = Array.from({ length: chunks }, () => []);
  for (const l of works)
    cardChunks[l.work.id % chunks]!.push(card(l, site.strings.code, site.images));
  const files: BrowseFile[] = [
    keyed("facets.js", browseScript("facets", facets)),
    keyed("directors.js", browseScript("directors", directors)),
    keyed("search.js", browseScript("search", search)),
    keyed("labels.js", browseScript("labels", browseLabels(site, values))),
  ];
  for (const [k, list] of cardChunks.entries())
    files.push(keyed(`cards/${k}.js`, browseScript(`cards-${k}`, list)));
  return files;
}

const keyed = (name: string, text: string): BrowseFile => ({
  rel: `${BROWSE_DIR}${name}`,
  text,
  key: md5(text),
});

function positions(
  works: readonly ListedWork[],
  test: (l: ListedWork, i: number) => boolean,
): number[] {
  const out: number[] = [];
  works.forEach((l, i) => {
    if (test(l, i)) out.push(i);
  });
  return out;
}

/** The work's title and its titles in other languages, each once. */
function allTitles(l: ListedWork): string[] {
  return [...new Set([l.work.name, ...Object.values(l.work.browse?.names ?? {})])];
}

/**
 * `[id, slug, title, picture, director | 0, year | 0, other titles | 0]`; `picture` is
 * `[stem, widths, height]` when the variants are named `<stem>-<width>.<format>` in both formats,
 * else `[[webp file, width]…, [jpeg file, width]…, height]`.
 */
function card(l: ListedWork, lang: string, images: ReadonlyMap<string, Variants>): unknown[] {
  const { work } = l;
  const title = titleIn(work, lang);
  const others = allTitles(l).filter((t) => t !== title);
  return [
    work.id,
    work.slug,
    title,
    pictureData(images.get(work.cover)!),
    l.director?.name ?? 0,
    work.year ?? 0,
    others.length === 0 ? 0 : others,
  ];
}

function pictureData(v: Variants): unknown[] {
  const height = v.jpeg.at(-1)!.height;
  const stem = /^(.*)-\d+\.jpeg$/.exec(v.jpeg[0]?.file ?? "")?.[1];
  const widths = v.jpeg.map((i) => i.width);
  const regular =
    stem !== undefined &&
    v.webp.length === v.jpeg.length &&
    v.jpeg.every((i, n) => i.file === `${stem}-${i.width}.jpeg` && v.webp[n]!.width === i.width) &&
    v.webp.every((i) => i.file === `${stem}-${i.width}.webp`);
  if (regular) return [stem, widths, height];
  return [v.webp.map((i) => [i.file, i.width]), v.jpeg.map((i) => [i.file, i.width]), height];
}
