import type { Ordering } from "../content/schema.ts";
import type { ListedWork } from "./listing.ts";

/**
 * The four orderings of CONTRACT section 3. `name` uses the domain's collation (accents and case
 * ignored, numbers inside titles compared as numbers); ties go by id so every order is total.
 */
export function orderWorks(works: readonly ListedWork[], locale: string): Record<Ordering, ListedWork[]> {
  const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
  const byName = [...works].sort((a, b) => collator.compare(a.work.name, b.work.name) || a.work.id - b.work.id);
  // The name order is computed once; the others compare ranks in it instead of strings.
  const rank = new Map(byName.map((listed, index) => [listed.work.id, index]));
  const nameRank = (w: ListedWork) => rank.get(w.work.id)!;
  // -name reverses the collation but keeps ties by ascending id, so it is not byName reversed.
  const byNameDesc = [...works].sort((a, b) => collator.compare(b.work.name, a.work.name) || a.work.id - b.work.id);
  // Works without a year come last in both year orders; ties follow the name order.
  const byYear = (direction: 1 | -1) => (a: ListedWork, b: ListedWork) => {
    const ya = a.work.year;
    const yb = b.work.year;
    if (ya !== yb) {
      if (ya === null) return 1;
      if (yb === null) return -1;
      return (ya - yb) * direction;
    }
    return nameRank(a) - nameRank(b);
  };
  return {
    name: byName,
    "-name": byNameDesc,
    year: [...byName].sort(byYear(1)),
    "-year": [...byName].sort(byYear(-1)),
  };
}
