import type { Audiovisual, Ordering } from "../content/schema.ts";
import type { ListedWork } from "./listed-work.ts";

/** A name → the rank of its collation class: equal names (for the collator) share a rank. */
export type NameRanks = ReadonlyMap<string, number>;

/** A locale's ranks of the catalogue's names, and its distinct names in collation order. */
export interface RankedNames {
  ranks: NameRanks;
  /** Each distinct name once, in collation order: the next build starts from it (see nameRanks). */
  order: string[];
}

/**
 * The locale Intl collates a domain's names by: its own, but Valencian (`va`, which Intl does not
 * know and would collate as English) collates as Catalan, the same language under AVL norms.
 */
export function collationLocale(locale: string): string {
  const [language, ...rest] = locale.split("-");
  return language?.toLowerCase() === "va" ? ["ca", ...rest].join("-") : locale;
}

/** The title a domain ranks by: its locale's. */
const localeName = (work: Audiovisual) => work.name;

const collators = new Map<string, Intl.Collator>();

/**
 * How titles compare in `locale`: accents and case ignored, numbers inside titles compared as
 * numbers. One instance per locale, shared: the site's name ordering and the offline search index
 * must agree, and making a collator is not free (a network builds many sites in few locales).
 */
export function titleCollator(locale: string): Intl.Collator {
  let collator = collators.get(locale);
  if (collator === undefined) {
    collator = new Intl.Collator(collationLocale(locale), { sensitivity: "base", numeric: true });
    collators.set(locale, collator);
  }
  return collator;
}

/**
 * Ranks the names of `works` once with the locale's collation (accents and case ignored, numbers
 * inside titles compared as numbers). `title` picks what is ranked: the locale's `name` unless a
 * language version shows other titles (src/site/titles.ts). Collator comparisons are the costly part of ordering;
 * ranking the whole catalogue once per locale lets every domain and list sort by integers.
 *
 * `previous` is an earlier order of names (the previous build's): the names it holds are put
 * first in its order, the new ones after, and the sort (TimSort, which merges runs that are
 * already in order) then costs a few comparisons per new or moved name instead of a full sort of
 * tens of thousands. It is only a starting order: whatever it holds, the sort decides, so a stale
 * or wrong one costs time, never the result.
 */
export function nameRanks(
  works: readonly Audiovisual[],
  locale: string,
  previous: readonly string[] = [],
  title: (work: Audiovisual) => string = localeName,
): RankedNames {
  const collator = titleCollator(locale);
  const added = new Set(works.map(title));
  // The previous order's names that are still there (each once), then those it lacks in a rough
  // order close to the collation's (all of them in a first build).
  const order = previous.filter((name) => added.delete(name));
  for (const name of roughOrder(added)) order.push(name);
  order.sort(collator.compare);
  const ranks = new Map<string, number>();
  let rank = 0;
  order.forEach((name, i) => {
    if (i > 0 && collator.compare(order[i - 1]!, name) !== 0) rank++;
    ranks.set(name, rank);
  });
  return { ranks, order };
}

/**
 * Names in an order close to most collations', cheaply: their lowercase forms compared as plain
 * strings. The collator's sort then finds most of them in order and makes a fraction of the
 * comparisons of a sort from scratch. Stripping accents or padding numbers as well cost more than
 * the comparisons they saved (docs/performance.md#smaller-decisions-in-the-code). Only a starting
 * order, as a previous build's: whatever it gets wrong, the collator's sort decides.
 */
function roughOrder(names: Iterable<string>): string[] {
  const keyed = Array.from(names, (name) => ({ name, key: name.toLowerCase() }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.name);
}

/**
 * The four orderings of docs/interface.md#orderings. `name` uses the domain's collation; ties go by id so
 * every order is total. `ranks` must cover the works' titles as `title` picks them (see nameRanks).
 */
export function orderWorks(
  works: readonly ListedWork[],
  locale: string,
  ranks: NameRanks = nameRanks(
    works.map((l) => l.work),
    locale,
  ).ranks,
  title: (work: Audiovisual) => string = localeName,
): Record<Ordering, ListedWork[]> {
  // Sort keys are looked up once per work, not once per comparison.
  const keyed = works.map((listed) => ({
    listed,
    id: listed.work.id,
    rank: ranks.get(title(listed.work))!,
    year: listed.work.year,
    position: 0,
  }));
  type Keyed = (typeof keyed)[number];
  const byName = [...keyed].sort((a, b) => a.rank - b.rank || a.id - b.id);
  byName.forEach((entry, index) => (entry.position = index));
  // -name reverses the collation but keeps ties by ascending id, so it is not byName reversed.
  const byNameDesc = [...keyed].sort((a, b) => b.rank - a.rank || a.id - b.id);
  // Works without a year come last in both year orders; ties follow the name order.
  const byYear = (direction: 1 | -1) => (a: Keyed, b: Keyed) => {
    if (a.year !== b.year) {
      if (a.year === null) return 1;
      if (b.year === null) return -1;
      return (a.year - b.year) * direction;
    }
    return a.position - b.position;
  };
  const listed = (list: Keyed[]) => list.map((entry) => entry.listed);
  return {
    name: listed(byName),
    "-name": listed(byNameDesc),
    year: listed([...byName].sort(byYear(1))),
    "-year": listed([...byName].sort(byYear(-1))),
  };
}
