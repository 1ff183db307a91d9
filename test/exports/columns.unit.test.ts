import { describe, expect, it } from "vitest";
import {
  COLUMNS,
  columnWidths,
  rowCells,
  type CellValue,
  type Column,
} from "../../src/exports/columns.ts";
import type { ListedWork } from "../../src/model/domain-view.ts";
import { stringsFor } from "../../src/web/i18n.ts";
import { DOMAIN, director, work } from "../helpers/model.ts";

const listed = (extra: Partial<ListedWork> = {}): ListedWork => ({
  work: work(7, {
    name: "Nanuk",
    slug: "nanuk",
    year: 1922,
    duration: 79,
    audiovisual_type: "documentales",
    director_id: 3,
  }),
  director: director(3, { name: "Robert Flaherty", slug: "robert-flaherty" }),
  window: { from: "2026-11-01", until: "2026-12-31" },
  isNew: true,
  isLeaving: false,
  ...extra,
});

describe("the columns", () => {
  it("turn a listed work into typed cells under the base URL of its domain", () => {
    const domain = { ...DOMAIN, base_url: "https://biblio.example/cataleg" };
    expect(rowCells(listed(), { domain, categories: stringsFor("es").categories })).toEqual<
      CellValue[]
    >([
      { kind: "number", value: 7 },
      { kind: "text", value: "Nanuk" },
      { kind: "text", value: "nanuk" },
      { kind: "text", value: "documentales" },
      { kind: "text", value: "Robert Flaherty" },
      { kind: "number", value: 1922 },
      { kind: "date", value: "2026-11-01" },
      { kind: "date", value: "2026-12-31" },
      { kind: "number", value: 79 },
      { kind: "text", value: "https://biblio.example/cataleg/audiovisual-detail/7/nanuk/" },
      { kind: "text", value: "robert-flaherty" },
      { kind: "text", value: stringsFor("es").categories.documentales },
    ]);
  });

  it("leave a cell empty for every absent value", () => {
    const bare = listed({
      work: work(8, { year: null, duration: null, audiovisual_type: null, director_id: null }),
      director: null,
      window: { from: "2026-11-01", until: null },
    });
    const cells = rowCells(bare, { domain: DOMAIN, categories: stringsFor("en").categories });
    const empty = COLUMNS.map((c) => c.header).filter((_, i) => cells[i] === null);
    expect(empty).toEqual([
      "audiovisual_type",
      "director",
      "year",
      "available_until",
      "duration",
      "director_slug",
      "category",
    ]);
  });

  it("are as wide as the header with its filter button or the longest value, up to a cap", () => {
    const columns: Column[] = [
      { header: "id", maxWidth: 12, kind: "number", value: () => null },
      { header: "name", maxWidth: 20, kind: "text", value: () => null },
      { header: "available_from", maxWidth: 12, kind: "date", value: () => null },
    ];
    const text = (value: string): CellValue => ({ kind: "text", value });
    expect(columnWidths([], columns)).toEqual([5, 7, 17]);
    expect(
      columnWidths(
        [[{ kind: "number", value: 123456 }, text("Nanuk"), { kind: "date", value: "2026-11-01" }]],
        columns,
      ),
    ).toEqual([7, 7, 17]);
    expect(
      columnWidths(
        [
          [null, text("x".repeat(50)), null],
          [null, text("Nanuk"), null],
        ],
        columns,
      ),
    ).toEqual([5, 20, 17]);
  });
});
