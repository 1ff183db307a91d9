import type { DomainView, ListedWork } from "../model/domain-view.ts";
import { versionOrders } from "./titles.ts";

/**
 * The works of the browse pages and feeds (docs/browsing.md), from the name order of the version
 * in `language` (an interface language: versionOrders): a stable sort keeps that order among
 * works of the same day or decade.
 */
const byName = (view: DomainView, language: string) => versionOrders(view, language).name;

/** The shelves of the browse pages: the decades' index, one decade, the new works, the leaving ones. */
export const SHELVES = ["decades", "decade", "new", "leaving"] as const;
export type Shelf = (typeof SHELVES)[number];

/** The new works, newest `available_from` first (the Atom feed's order too). */
export function newWorks(view: DomainView, language: string): ListedWork[] {
  return byName(view, language)
    .filter((listed) => listed.isNew)
    .sort((a, b) => (a.window.from < b.window.from ? 1 : a.window.from > b.window.from ? -1 : 0));
}

/** The leaving works, soonest `available_until` first (a leaving work always has one). */
export function leavingWorks(view: DomainView, language: string): ListedWork[] {
  return byName(view, language)
    .filter((listed) => listed.isLeaving)
    .sort((a, b) =>
      a.window.until! < b.window.until! ? -1 : a.window.until! > b.window.until! ? 1 : 0,
    );
}

/** The decades that have listed works, oldest first, each with its works in name order. */
export function decadeShelves(
  view: DomainView,
  language: string,
): { decade: number; works: ListedWork[] }[] {
  const byDecade = new Map<number, ListedWork[]>();
  for (const listed of byName(view, language)) {
    const { year } = listed.work;
    if (year === null) continue;
    const decade = year - (year % 10);
    let works = byDecade.get(decade);
    if (works === undefined) byDecade.set(decade, (works = []));
    works.push(listed);
  }
  return [...byDecade].sort(([a], [b]) => a - b).map(([decade, works]) => ({ decade, works }));
}
