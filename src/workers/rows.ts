import type { CellValue } from "../exports/columns.ts";

/**
 * A spreadsheet's rows as they cross to a writer thread: each cell's kind in one byte array, the
 * texts (and dates) of all cells joined into one string with their lengths, the numbers in one
 * array. Posted as arrays of cell objects, the rows of a 14,000-row sheet cost the main thread
 * about 100 ms of structured cloning; as one array of values, half of that, a copy per string;
 * as one string, a single copy.
 */
export interface PackedRows {
  kinds: Uint8Array;
  text: string;
  /** The length of each text or date cell's value in `text`, in order. */
  lengths: Uint32Array;
  numbers: Float64Array;
  /** Where each row ends in `kinds`. */
  ends: Uint32Array;
}

const KINDS = [null, "number", "date", "text"] as const;

export function packRows(rows: Iterable<CellValue[]>, rowCount: number): PackedRows {
  const kinds: number[] = [];
  const texts: string[] = [];
  const lengths: number[] = [];
  const numbers: number[] = [];
  const ends = new Uint32Array(rowCount);
  let row = 0;
  for (const cells of rows) {
    if (row === rowCount) throw new Error(`bug: more rows than the ${rowCount} announced`);
    for (const cell of cells) {
      if (cell === null) kinds.push(0);
      else if (cell.kind === "number") {
        kinds.push(1);
        numbers.push(cell.value);
      } else {
        kinds.push(cell.kind === "date" ? 2 : 3);
        texts.push(cell.value);
        lengths.push(cell.value.length);
      }
    }
    ends[row++] = kinds.length;
  }
  return { kinds: Uint8Array.from(kinds), text: texts.join(""), lengths: Uint32Array.from(lengths), numbers: Float64Array.from(numbers), ends: ends.subarray(0, row) };
}

export function* unpackRows({ kinds, text, lengths, numbers, ends }: PackedRows): Generator<CellValue[]> {
  let at = 0;
  let texts = 0;
  let offset = 0;
  let numbered = 0;
  for (const end of ends) {
    const cells: CellValue[] = [];
    for (; at < end; at++) {
      const kind = KINDS[kinds[at]!]!;
      if (kind === null) cells.push(null);
      else if (kind === "number") cells.push({ kind, value: numbers[numbered++]! });
      else {
        const length = lengths[texts++]!;
        cells.push({ kind, value: text.slice(offset, offset + length) });
        offset += length;
      }
    }
    yield cells;
  }
}

/** The buffers of packed rows, transferred to the thread rather than copied. */
export const transferables = (packed: PackedRows): ArrayBuffer[] => [packed.kinds, packed.lengths, packed.numbers, packed.ends].map((array) => array.buffer as ArrayBuffer);
