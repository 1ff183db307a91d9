import type { Catalogue, Window } from "../content/load.ts";
import { LEAVING_DAYS } from "../content/domain-row.ts";
import type { Audiovisual, Domain, Ordering } from "../content/schema.ts";
import { dayNumber } from "../util/dates.ts";
import type { ListedWork } from "./listed-work.ts";
import { nameRanks, orderWorks, type NameRanks, type RankedNames } from "./order.ts";

export type { ListedWork };

/** What one domain shows at the build date: the listing in every ordering and the export sets. */
export interface DomainView {
  domain: Domain;
  date: string;
  /** Listed works in each ordering. */
  orders: Record<Ordering, ListedWork[]>;
  /** Works that became available within the export window, in name order. */
  ups: ListedWork[];
  /** Works whose availability ended within the export window, in name order. */
  downs: ListedWork[];
}

export function domainView(catalogue: Catalogue, domain: Domain, date: string): DomainView {
  const today = dayNumber(date);
  const leavingDays = domain.leaving_days ?? LEAVING_DAYS;
  const windows = catalogue.windows.get(domain.domain) ?? new Map<number, Window>();
  const listed: ListedWork[] = [];
  const ups: ListedWork[] = [];
  const downs: ListedWork[] = [];
  for (const work of catalogue.works) {
    const window = windows.get(work.id);
    if (window === undefined) continue;
    const from = dayNumber(window.from);
    const until = window.until === null ? Infinity : dayNumber(window.until);
    const entry: ListedWork = {
      work,
      director:
        work.director_id === null ? null : (catalogue.directors.get(work.director_id) ?? null),
      window,
      // docs/interface.md#listing: new while T - available_from < new_days.
      isNew: today - from < domain.new_days,
      // Leaving while available_until - T < leaving_days: open-ended windows never leave. Not in
      // the work's inputs digest (the API does not show it): it follows from the window, the date
      // and the domain's row, which are.
      isLeaving: until - today < leavingDays,
    };
    if (isListed(work, from, until, today)) listed.push(entry);
    // Both exports concern works with status 1 (a work with another status was never listed, so
    // it cannot be withdrawn). ups: T - window < available_from <= T; downs: T - window <=
    // available_until < T (gone today).
    if (work.status_global !== 1) continue;
    if (today - domain.export_window_days < from && from <= today) ups.push(entry);
    if (until !== Infinity && today - domain.export_window_days <= until && until < today)
      downs.push({ ...entry, isNew: false, isLeaving: false });
  }
  const ranks = catalogueRanks(catalogue, domain.locale);
  const byName = (list: ListedWork[]) => orderWorks(list, domain.locale, ranks).name;
  return {
    domain,
    date,
    orders: orderWorks(listed, domain.locale, ranks),
    ups: byName(ups),
    downs: byName(downs),
  };
}

/** docs/interface.md#listing: a work is listed while its status is 1 and the day is within its window (day numbers). */
const isListed = (work: Audiovisual, from: number, until: number, today: number) =>
  work.status_global === 1 && from <= today && today <= until;

/** The catalogue's names are ranked once per locale, however many domains and lists use it. */
const ranksByCatalogue = new WeakMap<Catalogue, Map<string, RankedNames>>();

/** Each locale's distinct names in collation order. */
export type NameOrders = Record<string, readonly string[]>;

const startingOrders = new WeakMap<Catalogue, NameOrders>();

/** The catalogue's names are ranked starting from these orders (a previous build's: see nameRanks). */
export function startFromNameOrders(catalogue: Catalogue, orders: NameOrders): void {
  startingOrders.set(catalogue, orders);
}

/** The orders of the locales ranked so far, for the next build to start from. */
export function nameOrders(catalogue: Catalogue): NameOrders {
  const ranked = ranksByCatalogue.get(catalogue) ?? new Map<string, RankedNames>();
  return Object.fromEntries([...ranked].map(([locale, { order }]) => [locale, order]));
}

function catalogueRanks(catalogue: Catalogue, locale: string): NameRanks {
  let byLocale = ranksByCatalogue.get(catalogue);
  if (byLocale === undefined)
    ranksByCatalogue.set(catalogue, (byLocale = new Map<string, RankedNames>()));
  let ranked = byLocale.get(locale);
  if (ranked === undefined) {
    // Without a previous order of its own, a locale starts from another locale's order of the
    // same names: collations differ in a few letters, so the sort finds the names nearly in
    // order (a few comparisons per name instead of a full sort; see nameRanks).
    const start = startingOrders.get(catalogue)?.[locale] ?? [...byLocale.values()].at(-1)?.order;
    byLocale.set(locale, (ranked = nameRanks(catalogue.works, locale, start)));
  }
  return ranked.ranks;
}
