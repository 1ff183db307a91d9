import type { CellValue } from "../exports/columns.ts";

/**
 * A spreadsheet's rows as they cross to a writer thread: each cell's kind in one byte array and
 * its value in one flat array of strings and numbers. Posted as arrays of cell objects, the rows
 * of a 14,000-row sheet cost the main thread about 100 ms of structured cloning; packed, a tenth.
 */
export interface PackedRows {
  kinds: Uint8Array;
  values: (string | number | null)[];
  /** Where each row ends in `kinds` and `values`. */
  ends: Uint32Array;
}

const KINDS = [null, "number", "date", "text"] as const;
/** The code of each kind of cell in `PackedRows.kinds` (an empty cell: EMPTY). */
export const KIND_CODES: Record<(typeof KINDS)[number] & string, number> = { number: 1, date: 2, text: 3 };
export const EMPTY = 0;

export function packRows(rows: Iterable<CellValue[]>, rowCount: number): PackedRows {
  const packer = new RowPacker(rowCount);
  for (const cells of rows) packer.add(cells);
  return packer.packed();
}

/**
 * Packs rows one at a time, in the pass that also measures them (see writeExports).
 * The arrays are sized from the first row (rows of a sheet have as many cells), not grown a cell
 * at a time: growing copied them again and again into memory touched for the first time, which
 * costs a page fault per 4 KB (see src/output/staging.ts, BATCH_BYTES).
 */
export class RowPacker {
  private kinds = new Uint8Array(0);
  private values: (string | number | null)[] = [];
  private used = 0;
  private readonly ends: Uint32Array;
  private row = 0;

  constructor(private readonly rowCount: number) {
    this.ends = new Uint32Array(rowCount);
  }

  add(cells: readonly CellValue[]): void {
    if (this.row === this.rowCount) throw new Error(`bug: more rows than the ${this.rowCount} announced`);
    if (this.used + cells.length > this.kinds.length) this.grow(this.used + cells.length);
    const { kinds, values } = this;
    for (const cell of cells) {
      kinds[this.used] = cell === null ? 0 : KIND_CODES[cell.kind];
      values[this.used++] = cell === null ? null : cell.value;
    }
    this.ends[this.row++] = this.used;
  }

  /** Room for the remaining rows if they are like the rows so far, and at least `needed` cells. */
  private grow(needed: number): void {
    const perRow = needed / (this.row + 1);
    const size = Math.max(needed, Math.ceil(perRow * this.rowCount));
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds.subarray(0, this.used));
    this.kinds = kinds;
  }

  packed(): PackedRows {
    this.values.length = this.used;
    return { kinds: this.kinds.slice(0, this.used), values: this.values, ends: this.ends.subarray(0, this.row) };
  }
}

/**
 * Rows already packed: unpacked as they are iterated (a spreadsheet written in this thread), or
 * sent as they are to a writer thread (WriterPool.sheet).
 */
export class PackedSheetRows implements Iterable<CellValue[]> {
  constructor(readonly packed: PackedRows) {}

  [Symbol.iterator](): Iterator<CellValue[]> {
    return unpackRows(this.packed);
  }
}

export function* unpackRows({ kinds, values, ends }: PackedRows): Generator<CellValue[]> {
  let at = 0;
  for (const end of ends) {
    const cells: CellValue[] = [];
    for (; at < end; at++) {
      const kind = KINDS[kinds[at]!]!;
      cells.push(kind === null ? null : ({ kind, value: values[at] } as CellValue));
    }
    yield cells;
  }
}
