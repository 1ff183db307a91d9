import { describe, expect, it } from "vitest";
import { domainView } from "../../src/model/domain-view.ts";
import { catalogueOf, DOMAIN, work } from "../helpers/model.ts";

const T = "2026-11-20";
/** The day `n` days after T (before it when negative), by the calendar: the reference. */
const day = (n: number) => new Date(Date.UTC(2026, 10, 20 + n)).toISOString().slice(0, 10);

/** The listed works' ids with isLeaving, for windows ending on the given days (null: open-ended). */
function leaving(untils: (number | null)[], leavingDays?: number, date = T) {
  const works = untils.map((_, i) => work(i + 1));
  const windows = new Map(
    untils.map((u, i) => [i + 1, { from: "2020-01-01", until: u === null ? null : day(u) }]),
  );
  const domain = leavingDays === undefined ? DOMAIN : { ...DOMAIN, leaving_days: leavingDays };
  const view = domainView(catalogueOf(works, { domain, windows }), domain, date);
  return Object.fromEntries(view.orders.name.map((l) => [l.work.id, l.isLeaving]));
}

describe("leaving: available_until - T < leaving_days", () => {
  it("with the default 30: T and T+29 leave, T+30 does not, T-1 is not listed, open never leaves", () => {
    expect(leaving([-1, 0, 1, 29, 30, 31, null])).toEqual({
      2: true,
      3: true,
      4: true,
      5: false,
      6: false,
      7: false,
    });
  });

  it("takes the domain's leaving_days: 0 makes nothing leave, 1 only the last day", () => {
    expect(leaving([0, 1, 2, null], 0)).toEqual({ 1: false, 2: false, 3: false, 4: false });
    expect(leaving([0, 1, 2, null], 1)).toEqual({ 1: true, 2: false, 3: false, 4: false });
    expect(leaving([0, 6, 7, 365], 7)).toEqual({ 1: true, 2: true, 3: false, 4: false });
  });

  it("moves with the build date: a day later, T+30 leaves and T is gone", () => {
    expect(leaving([0, 29, 30, 31], undefined, day(1))).toEqual({ 2: true, 3: true, 4: false });
  });

  it("counts across a month and a year's end by days, not by dates' digits", () => {
    const works = [work(1), work(2)];
    const windows = new Map([
      [1, { from: "2020-01-01", until: "2027-01-29" }], // 29 days after 2026-12-31
      [2, { from: "2020-01-01", until: "2027-01-30" }], // 30 days after
    ]);
    const view = domainView(catalogueOf(works, { windows }), DOMAIN, "2026-12-31");
    expect(view.orders.name.map((l) => l.isLeaving)).toEqual([true, false]);
  });

  it("never marks the downs (gone already) as leaving", () => {
    const works = [work(1)];
    const windows = new Map([[1, { from: "2020-01-01", until: day(-1) }]]);
    const view = domainView(catalogueOf(works, { windows }), DOMAIN, T);
    expect(view.downs.map((l) => [l.work.id, l.isLeaving])).toEqual([[1, false]]);
  });
});
