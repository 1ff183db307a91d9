import { describe, expect, it } from "vitest";
import { domainView } from "../../src/model/domain-view.ts";
import { catalogueOf, director, DOMAIN, work } from "../helpers/model.ts";

const T = "2026-11-20";
const names = (list: { work: { id: number } }[]) =>
  list.map((l) => l.work.id).sort((a, b) => a - b);

describe("domainView", () => {
  it("lists works whose window contains T and whose status is 1", () => {
    const works = [
      work(1),
      work(2),
      work(3),
      work(4),
      work(5, { status_global: 0 }),
      work(6),
      work(7),
    ];
    const windows = new Map([
      [1, { from: "2020-01-01", until: null }],
      [2, { from: T, until: T }], // first and last day: listed
      [3, { from: "2026-11-21", until: null }], // upcoming
      [4, { from: "2020-01-01", until: "2026-11-19" }], // gone yesterday
      [5, { from: "2020-01-01", until: null }], // status 0
      [6, { from: "2020-01-01", until: "2030-01-01" }],
    ]);
    const view = domainView(catalogueOf(works, { windows }), DOMAIN, T);
    expect(names(view.orders.name)).toEqual([1, 2, 6]);
  });

  it("marks works new while T - available_from < new_days", () => {
    const works = [work(1), work(2), work(3)];
    const windows = new Map([
      [1, { from: "2026-10-21", until: null }], // 30 days ago: not new with new_days 30
      [2, { from: "2026-10-22", until: null }], // 29 days ago: new
      [3, { from: T, until: null }], // today: new
    ]);
    const view = domainView(catalogueOf(works, { windows }), DOMAIN, T);
    expect(view.orders.name.map((l) => [l.work.id, l.isNew])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
  });

  it("computes ups (T-window < from <= T) and downs (T-window <= until < T) of works with status 1", () => {
    const works = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => work(id));
    works.push(work(9, { status_global: 0 }), work(10, { status_global: 0 }));
    const windows = new Map([
      [1, { from: "2026-10-21", until: null }], // exactly T-30: not an up
      [2, { from: "2026-10-22", until: null }], // T-29: up
      [3, { from: T, until: null }], // today: up
      [4, { from: "2026-11-21", until: null }], // tomorrow: not yet
      [5, { from: "2020-01-01", until: "2026-10-21" }], // until T-30: down
      [6, { from: "2020-01-01", until: "2026-10-20" }], // T-31: too old
      [7, { from: "2020-01-01", until: T }], // still listed today: not a down
      [8, { from: "2020-01-01", until: "2026-11-19" }], // yesterday: down
      [9, { from: "2026-11-10", until: null }], // status 0: not an up
      [10, { from: "2020-01-01", until: "2026-11-19" }], // status 0: never listed, so not a down
    ]);
    const view = domainView(catalogueOf(works, { windows }), DOMAIN, T);
    expect(names(view.ups)).toEqual([2, 3]);
    expect(names(view.downs)).toEqual([5, 8]);
  });

  it("orders each locale's names by its own collation, whichever locale was ranked before it", () => {
    // Swedish sorts Ö after Z, Spanish Ñ after N; English folds both into O and N.
    const titles = [
      "Öga",
      "Oxe",
      "Zebra",
      "Ñu",
      "Nube",
      "Nz",
      "Ostra",
      "öga",
      "Ödla",
      "Niño",
      "Ñandú",
      "Olmo 10",
      "Olmo 9",
    ];
    const works = titles.map((name, i) => work(i + 1, { name }));
    const byName = (locale: string, catalogue = catalogueOf(works)) =>
      domainView(catalogue, { ...DOMAIN, locale }, T).orders.name.map((l) => l.work.name);
    const alone = Object.fromEntries(["sv", "es", "en"].map((locale) => [locale, byName(locale)]));
    expect(alone.sv!.slice(-4)).toEqual(["Zebra", "Ödla", "Öga", "öga"]);
    expect(alone.es!.indexOf("Ñandú")).toBeGreaterThan(alone.es!.indexOf("Nz"));
    expect(alone.en!.indexOf("Öga")).toBeLessThan(alone.en!.indexOf("Zebra"));
    for (const [first, second] of [
      ["en", "sv"],
      ["sv", "en"],
      ["en", "es"],
      ["es", "sv"],
    ] as const) {
      const shared = catalogueOf(works);
      expect(byName(first, shared)).toEqual(alone[first]);
      expect(byName(second, shared)).toEqual(alone[second]);
    }
  });

  it("resolves directors and leaves works without one at null", () => {
    const works = [work(1, { director_id: 7 }), work(2)];
    const view = domainView(catalogueOf(works, { directors: [director(7)] }), DOMAIN, T);
    expect(view.orders.name.map((l) => l.director?.id ?? null)).toEqual([7, null]);
  });
});
