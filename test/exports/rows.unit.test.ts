import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CellValue } from "../../src/exports/columns.ts";
import {
  cellText,
  EMPTY,
  KIND_CODES,
  packRows,
  RowPacker,
  unpackRows,
} from "../../src/exports/rows.ts";

const cell: fc.Arbitrary<CellValue> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant("number" as const), value: fc.double({ noNaN: true }) }),
  fc.record({ kind: fc.constant("date" as const), value: fc.constant("2026-11-20") }),
  fc.record({
    kind: fc.constant("text" as const),
    value: fc.oneof(fc.string(), fc.string({ unit: "binary" })),
  }),
);

describe("a sheet's rows crossing to a writer thread", () => {
  it("arrive as the same cells, rows of any length included", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 20 }), (rows) => {
        const packed = structuredClone(packRows(rows, rows.length));
        expect([...unpackRows(packed)]).toEqual(rows);
      }),
    );
  });

  it("are packed alike cell by cell (as the exports measure them) and row by row, and read alike whole or a cell at a time", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 20 }), (rows) => {
        const packer = new RowPacker(rows.length);
        for (const cells of rows) {
          for (const c of cells)
            packer.cell(c === null ? EMPTY : KIND_CODES[c.kind], c === null ? null : c.value);
          packer.endRow();
        }
        const packed = packer.packed();
        expect(packed).toEqual(packRows(rows, rows.length));
        const texts = rows
          .flat()
          .map((c, at) => (c !== null && c.kind !== "number" ? cellText(packed, at) : null));
        expect(texts).toEqual(
          rows.flat().map((c) => (c !== null && c.kind !== "number" ? c.value : null)),
        );
      }),
    );
  });

  it("refuse more rows than announced", () => {
    expect(() => packRows([[null], [null]], 1)).toThrow(/more rows/);
  });
});
