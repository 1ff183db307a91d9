import type { Audiovisual, Ordering } from "../content/schema.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import { nameRanks, orderWorks } from "../model/order.ts";

/**
 * A work's title as the pages of one language show it: its `name_<lang>` column, Valencian falling
 * back to Catalan, and the locale's `name` otherwise. Every page, feed and index that shows a title
 * goes through here; the API and the spreadsheets keep `name`.
 */
export function titleIn(work: Audiovisual, language: string): string {
  const names = work.browse?.names;
  if (names === undefined) return work.name;
  const code = language.toLowerCase().split("-")[0] as keyof typeof names;
  return names[code] ?? (code === "va" ? names.ca : undefined) ?? work.name;
}

export type Orders = Record<Ordering, ListedWork[]>;

const ordersByView = new WeakMap<DomainView, Map<string, Orders>>();

/**
 * The listing's four orderings as the version in `language` (an interface language: `ca`, `va`…)
 * shows them: by the titles it shows, with the model's rule for names (orderWorks) in that
 * language's collation. A version that shows every listed work under the locale's `name` keeps the
 * domain's orders, sorted once for the API. Computed once per view and language: every page kind,
 * feed and index of a version reads the same orders.
 */
export function versionOrders(view: DomainView, language: string): Orders {
  let byLanguage = ordersByView.get(view);
  if (byLanguage === undefined) ordersByView.set(view, (byLanguage = new Map<string, Orders>()));
  let orders = byLanguage.get(language);
  if (orders === undefined) {
    const listed = view.orders.name;
    const shown = listed.map((l) => titleIn(l.work, language));
    if (shown.every((title, i) => title === listed[i]!.work.name)) orders = view.orders;
    else {
      // Each title picked once: the ranking and the sorts look it up.
      const titles = new Map(listed.map((l, i) => [l.work, shown[i]!]));
      const title = (work: Audiovisual) => titles.get(work)!;
      // From nameRanks' rough order: starting from the domain's order of the titles was no cheaper.
      const { ranks } = nameRanks(
        listed.map((l) => l.work),
        language,
        [],
        title,
      );
      orders = orderWorks(listed, language, ranks, title);
    }
    byLanguage.set(language, orders);
  }
  return orders;
}
