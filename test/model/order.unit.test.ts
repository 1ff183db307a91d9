import { describe, expect, it } from "vitest";
import type { Audiovisual } from "../../src/content/schema.ts";
import type { ListedWork } from "../../src/model/domain-view.ts";
import { nameRanks, orderWorks } from "../../src/model/order.ts";

function work(id: number, name: string, year: number | null = null): ListedWork {
  const w: Audiovisual = {
    id,
    name,
    slug: `w-${id}`,
    audiovisual_type: null,
    director_id: null,
    year,
    duration: null,
    cover: "c.png",
    status_global: 1,
  };
  return {
    work: w,
    director: null,
    window: { from: "2020-01-01", until: null },
    isNew: false,
    isLeaving: false,
  };
}
const ids = (list: ListedWork[]) => list.map((l) => l.work.id);

describe("orderings", () => {
  it("compares names with the locale's collation: accents and case ignored, numbers as numbers", () => {
    const works = [
      work(1, "Zoo"),
      work(2, "Élan"),
      work(3, "elan"),
      work(4, "Film 10"),
      work(5, "Film 2"),
      work(6, "ábaco"),
      work(7, "Film 1"),
    ];
    expect(ids(orderWorks(works, "es").name)).toEqual([6, 2, 3, 7, 5, 4, 1]);
  });

  it("breaks name ties by ascending id in both directions", () => {
    const works = [
      work(9, "Nosferatu"),
      work(3, "Nosferatu"),
      work(5, "Amanecer"),
      work(4, "NOSFERATU"),
    ];
    const orders = orderWorks(works, "es");
    expect(ids(orders.name)).toEqual([5, 3, 4, 9]);
    // -name reverses the collation, but ties stay by ascending id (so it is not name reversed).
    expect(ids(orders["-name"])).toEqual([3, 4, 9, 5]);
  });

  it("orders by year both ways with works without a year last, ties in name order", () => {
    const works = [
      work(1, "B", 1920),
      work(2, "A", 1920),
      work(3, "C", null),
      work(4, "D", 1895),
      work(5, "Á", null),
      work(6, "E", 1930),
    ];
    const orders = orderWorks(works, "es");
    expect(ids(orders.year)).toEqual([4, 2, 1, 6, 5, 3]);
    expect(ids(orders["-year"])).toEqual([6, 2, 1, 4, 5, 3]);
  });

  it("uses the domain's locale (Swedish sorts Ö after Z, Spanish does not)", () => {
    const works = [work(1, "Öga"), work(2, "Zebra"), work(3, "Oso")];
    expect(ids(orderWorks(works, "es").name)).toEqual([1, 3, 2]);
    expect(ids(orderWorks(works, "sv").name)).toEqual([3, 2, 1]);
  });

  it("handles an empty list", () => {
    expect(orderWorks([], "es")).toEqual({ name: [], "-name": [], year: [], "-year": [] });
  });
});

describe("ranking from a previous order", () => {
  // A seeded generator, so that a failure can be repeated.
  function random(seed: number) {
    return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  }
  const words = [
    "Amanecer",
    "amanecer",
    "Ámbar",
    "Zoo",
    "Öga",
    "Film 2",
    "Film 10",
    "film 1",
    "Film 007",
    "Niño",
    "Nino",
    "Ñandú",
    "Ça",
    "ca",
    "Œuvre",
    "Straße",
    "Strasse",
    "東京",
    "Ab",
    "ab-c",
    "Ab C",
    "¡Ay!",
    "«Ella»",
    "Ch",
    "ll",
    "İstanbul",
    "ı",
    "Ærø",
    "Ångström",
  ];

  it("gives the ranks and order of a ranking from scratch, whatever the previous order holds", () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    for (const locale of ["es", "en", "sv", "de", "fr", "cs", "da", "ja", "tr"]) {
      for (let round = 0; round < 25; round++) {
        const works = Array.from(
          { length: 1 + Math.floor(next() * 60) },
          (_, i) =>
            work(i + 1, `${pick(words)}${next() < 0.5 ? "" : ` ${Math.floor(next() * 30)}`}`).work,
        );
        const fresh = nameRanks(works, locale);
        // The ranks of a plain sort with the collator, from the works' order.
        const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
        const sorted = [...new Set(works.map((w) => w.name))].sort(collator.compare);
        const reference = new Map<string, number>();
        sorted.forEach((name, i) =>
          reference.set(
            name,
            i === 0
              ? 0
              : reference.get(sorted[i - 1]!)! +
                  (collator.compare(sorted[i - 1]!, name) === 0 ? 0 : 1),
          ),
        );
        expect(
          works.map((w) => fresh.ranks.get(w.name)),
          locale,
        ).toEqual(works.map((w) => reference.get(w.name)));
        // Previous orders: the fresh one after a rename, shuffled, reversed, with stale names and duplicates.
        const names = fresh.order;
        const previous = [
          names.map((name) => (next() < 0.1 ? `${name} (restaurada)` : name)),
          [...names].sort(() => next() - 0.5),
          [...names].reverse(),
          ["Stale title", ...names.slice(0, names.length >> 1), names[0]!, "Another"],
          [],
        ];
        for (const start of previous) {
          const ranked = nameRanks(works, locale, start);
          const ranksOf = (r: typeof ranked) => works.map((w) => r.ranks.get(w.name));
          expect(ranksOf(ranked), `${locale} from ${JSON.stringify(start)}`).toEqual(
            ranksOf(fresh),
          );
          // The order holds each name once, in an order the collator agrees with.
          expect(new Set(ranked.order).size).toBe(ranked.order.length);
          expect(new Set(ranked.order)).toEqual(new Set(works.map((w) => w.name)));
          const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
          ranked.order.forEach(
            (name, i) =>
              i === 0 ||
              expect(collator.compare(ranked.order[i - 1]!, name)).toBeLessThanOrEqual(0),
          );
        }
      }
    }
  });
});
