import { describe, expect, it } from "vitest";
import type { Audiovisual } from "../../src/content/schema.ts";
import type { ListedWork } from "../../src/model/listing.ts";
import { orderWorks } from "../../src/model/order.ts";

function work(id: number, name: string, year: number | null = null): ListedWork {
  const w: Audiovisual = { id, name, slug: `w-${id}`, audiovisual_type: null, director_id: null, year, duration: null, cover: "c.png", status_global: 1 };
  return { work: w, director: null, window: { from: "2020-01-01", until: null }, isNew: false };
}
const ids = (list: ListedWork[]) => list.map((l) => l.work.id);

describe("orderings", () => {
  it("compares names with the locale's collation: accents and case ignored, numbers as numbers", () => {
    const works = [work(1, "Zoo"), work(2, "Élan"), work(3, "elan"), work(4, "Film 10"), work(5, "Film 2"), work(6, "ábaco"), work(7, "Film 1")];
    expect(ids(orderWorks(works, "es").name)).toEqual([6, 2, 3, 7, 5, 4, 1]);
  });

  it("breaks name ties by ascending id in both directions", () => {
    const works = [work(9, "Nosferatu"), work(3, "Nosferatu"), work(5, "Amanecer"), work(4, "NOSFERATU")];
    const orders = orderWorks(works, "es");
    expect(ids(orders.name)).toEqual([5, 3, 4, 9]);
    // -name reverses the collation, but ties stay by ascending id (so it is not name reversed).
    expect(ids(orders["-name"])).toEqual([3, 4, 9, 5]);
  });

  it("orders by year both ways with works without a year last, ties in name order", () => {
    const works = [work(1, "B", 1920), work(2, "A", 1920), work(3, "C", null), work(4, "D", 1895), work(5, "Á", null), work(6, "E", 1930)];
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
