import type { CellValue } from "./columns.ts";

/**
 * A spreadsheet's rows as they cross to a writer thread: each cell's kind in one byte array, the
 * numbers in one array, and the texts (dates and text cells) one after the other in one string.
 * Posted as arrays of cell objects, the rows would cost the main thread their structured cloning;
 * as an array of values, the writer thread would still receive a string per cell (hundreds of
 * thousands per build), all kept until the sheet is written, and copied by every collection of
 * its young generation meanwhile (docs/performance.md#both-cores).
 */
export interface PackedRows {
  /** Per cell: its kind (KIND_CODES; EMPTY for an empty cell). */
  kinds: Uint8Array;
  /** Per cell: a number cell's value (0 for the others). */
  numbers: Float64Array;
  /** The values of the date and text cells, one after the other. */
  texts: string;
  /** Per cell: where its value ends in `texts` (a cell without text: where the one before ended). */
  textEnds: Uint32Array;
  /** Per row: where it ends in the cells. */
  ends: Uint32Array;
}

const KINDS = [null, "number", "date", "text"] as const;
/** The code of each kind of cell in `PackedRows.kinds` (an empty cell: EMPTY). */
export const KIND_CODES: Record<(typeof KINDS)[number] & string, number> = {
  number: 1,
  date: 2,
  text: 3,
};
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
 * costs a page fault per 4 KB (see src/output/batches.ts, BATCH_BYTES).
 */
export class RowPacker {
  private kinds = new Uint8Array(0);
  private numbers = new Float64Array(0);
  private textEnds = new Uint32Array(0);
  private readonly texts: string[] = [];
  private textLength = 0;
  private used = 0;
  private readonly ends: Uint32Array;
  private row = 0;

  constructor(private readonly rowCount: number) {
    this.ends = new Uint32Array(rowCount);
  }

  add(cells: readonly CellValue[]): void {
    for (const cell of cells) {
      if (cell === null) this.cell(EMPTY, null);
      else this.cell(KIND_CODES[cell.kind], cell.value);
    }
    this.endRow();
  }

  /** Adds a cell of the current row: its kind (KIND_CODES, EMPTY) and value (null when empty). */
  cell(kind: number, value: number | string | null): void {
    if (this.used === this.kinds.length) this.grow(this.used + 1);
    if (value === null) this.kinds[this.used] = EMPTY;
    else {
      this.kinds[this.used] = kind;
      if (typeof value === "number") this.numbers[this.used] = value;
      else {
        this.texts.push(value);
        this.textLength += value.length;
      }
    }
    this.textEnds[this.used++] = this.textLength;
  }

  /** Ends the current row. */
  endRow(): void {
    if (this.row === this.rowCount)
      throw new Error(`bug: more rows than the ${this.rowCount} announced`);
    this.ends[this.row++] = this.used;
  }

  /** Room for the remaining rows if they are like the rows so far, and at least `needed` cells. */
  private grow(needed: number): void {
    const perRow = needed / (this.row + 1);
    const size = Math.max(needed, Math.ceil(perRow * this.rowCount));
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds.subarray(0, this.used));
    const numbers = new Float64Array(size);
    numbers.set(this.numbers.subarray(0, this.used));
    const textEnds = new Uint32Array(size);
    textEnds.set(this.textEnds.subarray(0, this.used));
    [this.kinds, this.numbers, this.textEnds] = [kinds, numbers, textEnds];
  }

  packed(): PackedRows {
    const cells = this.used;
    return {
      kinds: this.kinds.slice(0, cells),
      numbers: this.numbers.slice(0, cells),
      texts: this.texts.join(""),
      textEnds: this.textEnds.slice(0, cells),
      ends: this.ends.slice(0, this.row),
    };
  }
}

/** The arrays of packed rows, to transfer rather than copy to a writer thread. */
export const packedBuffers = (rows: PackedRows): ArrayBuffer[] =>
  [rows.kinds, rows.numbers, rows.textEnds, rows.ends].map((array) => array.buffer as ArrayBuffer);

/**
 * Rows already packed: unpacked as they are iterated, or written or sent as they are
 * (writeSheet, sheetJob).
 */
export class PackedSheetRows implements Iterable<CellValue[]> {
  constructor(readonly packed: PackedRows) {}

  [Symbol.iterator](): Iterator<CellValue[]> {
    return unpackRows(this.packed);
  }
}

/** The value of the packed cell `at` when it holds text (a date or a text cell). */
export const cellText = ({ texts, textEnds }: PackedRows, at: number): string =>
  texts.slice(at === 0 ? 0 : textEnds[at - 1], textEnds[at]);

export function* unpackRows(rows: PackedRows): Generator<CellValue[]> {
  let at = 0;
  for (const end of rows.ends) {
    const cells: CellValue[] = [];
    for (; at < end; at++) {
      const kind = KINDS[rows.kinds[at]!]!;
      cells.push(
        kind === null
          ? null
          : kind === "number"
            ? { kind, value: rows.numbers[at]! }
            : { kind, value: cellText(rows, at) },
      );
    }
    yield cells;
  }
}
