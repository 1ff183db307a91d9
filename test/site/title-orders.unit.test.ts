import { describe, expect, it } from "vitest";
import type { Audiovisual, Ordering } from "../../src/content/schema.ts";
import { domainView } from "../../src/model/domain-view.ts";
import { leavingWorks, newWorks } from "../../src/site/shelves.ts";
import { titleIn, versionOrders } from "../../src/site/titles.ts";
import { catalogueOf, DOMAIN, work } from "../helpers/model.ts";

/**
 * The orders of a language version: by the titles it shows, against a plain sort with Intl's
 * collator of that language (accents and case ignored, numbers as numbers, ties by id).
 */

const DATE = "2026-11-20";

/** Titles with leading punctuation, numbers, accents, repeats, and works without a Catalan one. */
const WORKS: Audiovisual[] = [
  work(1, { name: "Zapatos rojos", browse: { names: { ca: "Sabates vermelles" } } }),
  work(2, { name: "El año pasado", browse: { names: { ca: "L'any passat" } } }),
  work(3, { name: "¡Ay, Carmela!", year: null }),
  work(4, { name: "Ñandú", browse: { names: { ca: "Nyandú" } } }),
  work(5, { name: "Película 10", browse: { names: { ca: "Pel·lícula 10" } } }),
  work(6, { name: "Película 9", browse: { names: { ca: "Pel·lícula 9" } } }),
  work(7, { name: "Nosferatu" }),
  work(8, { name: "Nosferatu", browse: { names: { ca: "Àngels" } } }),
  work(9, { name: "Nosferatu", browse: { names: { en: "Nosferatu" } } }),
  work(10, { name: "Amanecer", browse: { names: { ca: "zoològic", va: "Zoo" } } }),
  work(11, { name: "«Ocho»", browse: { names: { ca: '"Vuit"', en: "Eight" } } }),
  work(12, { name: "Ángeles", browse: { names: { en: "Angels" } } }),
  work(13, { name: "Àngels", year: 1900 }),
  work(14, { name: "12 hombres", browse: { names: { ca: "12 homes sense pietat" } } }),
  work(15, { name: "2 días", browse: { names: { ca: "Dos dies" } } }),
];

const view = () => domainView(catalogueOf(WORKS), DOMAIN, DATE);

/** The four orderings computed the plain way from what the version shows. */
function plain(language: string): Record<Ordering, number[]> {
  const collator = new Intl.Collator(language === "va" ? "ca" : language, {
    sensitivity: "base",
    numeric: true,
  });
  const shown = WORKS.map((w) => ({ id: w.id, title: titleIn(w, language), year: w.year }));
  const name = [...shown].sort((a, b) => collator.compare(a.title, b.title) || a.id - b.id);
  const at = new Map(name.map((w, i) => [w.id, i]));
  const byYear = (sign: number) => (a: (typeof shown)[0], b: (typeof shown)[0]) =>
    a.year === b.year
      ? at.get(a.id)! - at.get(b.id)!
      : a.year === null
        ? 1
        : b.year === null
          ? -1
          : sign * (a.year - b.year);
  const ids = (list: typeof shown) => list.map((w) => w.id);
  return {
    name: ids(name),
    "-name": ids([...shown].sort((a, b) => collator.compare(b.title, a.title) || a.id - b.id)),
    year: ids([...name].sort(byYear(1))),
    "-year": ids([...name].sort(byYear(-1))),
  };
}

const idsOf = (orders: ReturnType<typeof versionOrders>) =>
  Object.fromEntries(
    Object.entries(orders).map(([ordering, list]) => [ordering, list.map((l) => l.work.id)]),
  );

describe("versionOrders", () => {
  it.each(["ca", "va", "en"])(
    "orders the %s version by its own titles in its collation",
    (language) => {
      const orders = versionOrders(view(), language);
      expect(idsOf(orders)).toEqual(plain(language));
    },
  );

  it("orders the Catalan titles otherwise than the Spanish ones", () => {
    const v = view();
    const ca = versionOrders(v, "ca").name.map((l) => l.work.id);
    expect(ca).not.toEqual(v.orders.name.map((l) => l.work.id));
    // Work 8 is "Àngels" in Catalan: it ties with work 13's name (by id), far from "Nosferatu".
    expect(ca.indexOf(13)).toBe(ca.indexOf(8) + 1);
    expect(ca.indexOf(7)).toBeGreaterThan(ca.indexOf(13) + 1);
  });

  it("keeps the domain's orders, unsorted again, where every title shown is the locale's", () => {
    const v = view();
    expect(versionOrders(v, "es")).toBe(v.orders);
    // Work 9's English title is its name: the English version still differs (works 11, 12).
    expect(versionOrders(v, "en")).not.toBe(v.orders);
    const plainView = domainView(catalogueOf(WORKS.map(({ browse: _, ...w }) => w)), DOMAIN, DATE);
    for (const language of ["ca", "en", "va", "fr"])
      expect(versionOrders(plainView, language)).toBe(plainView.orders);
  });

  it("sorts once per view and language", () => {
    const v = view();
    expect(versionOrders(v, "ca")).toBe(versionOrders(v, "ca"));
    expect(versionOrders(v, "ca")).not.toBe(versionOrders(v, "va"));
  });
});

describe("the shelves of a version", () => {
  // Every work new from the same day but three, and five leaving on the same day: the ties.
  const windows = new Map(
    WORKS.map((w) => [
      w.id,
      {
        from: [3, 8, 11].includes(w.id) ? "2026-11-01" : "2026-11-10",
        until: w.id % 3 === 0 ? null : "2026-12-01",
      },
    ]),
  );
  const shelfView = () => domainView(catalogueOf(WORKS, { windows }), DOMAIN, DATE);

  it.each(["ca", "va", "en", "es"])(
    "breaks the new and leaving works' ties by the %s version's titles (the feeds' order)",
    (language) => {
      const v = shelfView();
      const name = plain(language).name;
      const ofDay = (day: string, key: "from" | "until") =>
        name.filter((id) => windows.get(id)![key] === day);
      expect(newWorks(v, language).map((l) => l.work.id)).toEqual([
        ...ofDay("2026-11-10", "from"),
        ...ofDay("2026-11-01", "from"),
      ]);
      expect(leavingWorks(v, language).map((l) => l.work.id)).toEqual(ofDay("2026-12-01", "until"));
    },
  );
});
