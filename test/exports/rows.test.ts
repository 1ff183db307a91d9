import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CellValue } from "../../src/exports/columns.ts";
import { packRows, unpackRows } from "../../src/exports/rows.ts";

const cell: fc.Arbitrary<CellValue> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant("number" as const), value: fc.double({ noNaN: true }) }),
  fc.record({ kind: fc.constant("date" as const), value: fc.constant("2026-11-20") }),
  fc.record({ kind: fc.constant("text" as const), value: fc.oneof(fc.string(), fc.string({ unit: "binary" })) }),
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

  it("refuse more rows than announced", () => {
    expect(() => packRows([[null], [null]], 1)).toThrow(/more rows/);
  });
});
