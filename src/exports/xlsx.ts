import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { CellValue } from "./columns.ts";
import { cellText, EMPTY, KIND_CODES, PackedSheetRows, packRows, type PackedRows } from "./rows.ts";
import {
  appXml,
  columnLetters,
  CONTENT_TYPES,
  coreXml,
  DATE_STYLE,
  dateSerial,
  PACKAGE_RELS,
  sheetClosing,
  sheetOpening,
  stylesXml,
  textCell,
  THEME,
  workbookXml,
  WORKBOOK_RELS,
  xmlEncode,
} from "./xlsx-parts.ts";
import { ZipWriter } from "../util/zip.ts";
import { codeVersion, type CodeConcern } from "../util/code-version.ts";

const { number: NUMBER, date: DATE } = KIND_CODES;

/**
 * A spreadsheet of one sheet, written as exceljs' streaming writer writes it (byte for byte in
 * every part: `test/exports/xlsx.unit.test.ts` writes the same sheets with exceljs and compares), but
 * without it: exceljs' row model makes objects per cell, and its streams and zip (a JavaScript
 * CRC-32, a stream callback per 16 KB) made the spreadsheets a large part of an API build's CPU
 * even with the rows rendered here (docs/performance.md#the-work-that-is-done-cheaper).
 */

export interface SheetSpec {
  /** Sheet name: at most 31 characters, none of `[]:*?/\`. */
  sheetName: string;
  headers: readonly string[];
  /** Width of each column, in characters. */
  widths: readonly number[];
  rowCount: number;
  rows: Iterable<CellValue[]>;
  /** Document properties. `date` (YYYY-MM-DD) is the creation and modification date. */
  properties: { title: string; subject: string; keywords: string; language: string; date: string };
}

/**
 * What makes a spreadsheet's bytes: the exports' modules (the rows and their columns, the labels,
 * this writer, its parts and its zip: what src/exports/write.ts loads) and zlib, which compresses
 * them. A sheet's key holds its version (src/util/code-version.ts), so an edit of that code writes
 * the sheets again, and an edit of the API's or the site's code does not.
 */
export const EXPORTS_CODE: CodeConcern = {
  entries: ["src/exports/write.ts"],
  engines: () => [`zlib ${process.versions.zlib}`],
};

/** A spec without its rows. */
export type SheetHead = Omit<SheetSpec, "rows">;
/** What a sheet's key covers besides its rows (the widths are measured from the rows). */
export type SheetKeyHead = Omit<SheetHead, "widths">;

/**
 * The key of a sheet (for FileSink.reuse): an MD5 of everything writeSheet's bytes are made of:
 * the code (EXPORTS_CODE's version), the spec (sheet name, headers, row count, properties with
 * the date) and `rowsKey`, a digest of what the rows (and so the widths) are made of.
 */
export function sheetKey(
  head: SheetKeyHead,
  rowsKey: string,
  version: string = codeVersion(EXPORTS_CODE),
): string {
  const { sheetName, headers, rowCount, properties } = head;
  const { title, subject, keywords, language, date } = properties;
  // Listed field by field, so that the key does not depend on the order properties were set in.
  const spec = [version, sheetName, headers, rowCount, title, subject, keywords, language, date];
  return createHash("md5").update(JSON.stringify(spec)).update("\n").update(rowsKey).digest("hex");
}

export const DATE_FORMAT = "yyyy-mm-dd";
export const CREATOR = "catalogue";

/** Characters of sheet XML gathered before they are compressed: memory holds one chunk of the sheet, not the sheet. */
const CHUNK_CHARS = 128 << 10;

/** What the writing took: the most bytes of XML ever held before compression (memory held by the sheet). */
export interface SheetStats {
  peakBuffered: number;
}

/**
 * Writes one spreadsheet file of a single sheet: the parts of `xlsx-parts.ts` and the data rows'
 * XML (`RowRenderer`), compressed as they come into a zip (`zip.ts`) dated the build date, so the
 * file is byte-for-byte a function of its inputs.
 */
export async function writeSheet(file: string, spec: SheetSpec): Promise<SheetStats> {
  const { properties } = spec;
  const zip = new ZipWriter(file, properties.date);
  try {
    zip.add("xl/theme/theme1.xml", THEME);
    zip.add("_rels/.rels", PACKAGE_RELS);
    const { peakBuffered, hasDate } = await writeSheetPart(zip, spec);
    zip.add("[Content_Types].xml", CONTENT_TYPES);
    zip.add("docProps/app.xml", appXml(spec.sheetName));
    zip.add("docProps/core.xml", coreXml({ creator: CREATOR, ...properties }));
    zip.add("xl/styles.xml", stylesXml(hasDate ? DATE_FORMAT : null));
    zip.add("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
    zip.add("xl/workbook.xml", workbookXml(spec.sheetName));
    zip.finish();
    return { peakBuffered };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/**
 * The sheet's part, its rows compressed a chunk at a time. The event loop turns after each chunk:
 * in a writer thread, the batches of API files that arrive meanwhile are written between the
 * chunks instead of waiting for the whole sheet (and the main thread with them).
 */
async function writeSheetPart(
  zip: ZipWriter,
  spec: SheetSpec,
): Promise<{ peakBuffered: number; hasDate: boolean }> {
  zip.startEntry("xl/worksheets/sheet1.xml");
  const row = new RowRenderer();
  let xml = sheetOpening(spec.headers, spec.widths);
  let written = 0;
  let peakBuffered = 0;
  const flush = () => {
    const bytes = Buffer.from(xml);
    peakBuffered = Math.max(peakBuffered, bytes.length);
    zip.chunk(bytes);
    xml = "";
  };
  // Rows are read packed (as writeExports makes them, and as they cross to a writer thread; rows
  // given as cells, in tests, are packed first): unpacked, they were an object per cell.
  const rows = packedRows(
    spec.rows instanceof PackedSheetRows ? spec.rows.packed : packRows(spec.rows, spec.rowCount),
  );
  for (const { cells, start, end } of rows) {
    xml += row.xml(++written + 1, cells, start, end);
    if (xml.length >= CHUNK_CHARS) {
      flush();
      await nextTurn();
    }
  }
  if (written !== spec.rowCount)
    throw new Error(`bug: ${spec.sheetName}: ${written} rows written, ${spec.rowCount} announced`);
  xml += sheetClosing(spec.headers.length, spec.rowCount);
  flush();
  zip.endEntry();
  return { peakBuffered, hasDate: row.hasDate };
}

/**
 * Data rows as exceljs' RowXform and CellXform render them for our cells: every cell of the row
 * counts in `spans`, an empty cell is left out, numbers and dates as `<v>` (dates with the date
 * style, as their serial number), text as an inline rich-text string. A row without a value is
 * not written at all. Rendered here rather than by exceljs' row model, which makes a Row and a
 * Cell object per cell, a style lookup per cell and an XML stream per row.
 */
class RowRenderer {
  hasDate = false;
  private readonly letters: string[] = [];
  /** Serial numbers of the days seen (a sheet's dates repeat: a few hundred distinct days). */
  private readonly serials = new Map<string, string>();

  /** Row `row`: the packed cells `start` … `end` of `cells`. */
  xml(row: number, cells: PackedRows, start: number, end: number): string {
    let xml = "";
    for (let at = start; at < end; at++) {
      const kind = cells.kinds[at]!;
      if (kind === EMPTY) continue;
      const i = at - start;
      const ref = `${(this.letters[i] ??= columnLetters(i + 1))}${row}`;
      if (kind === NUMBER) xml += `<c r="${ref}"><v>${cells.numbers[at]!}</v></c>`;
      else if (kind === DATE) {
        this.hasDate = true;
        xml += `<c r="${ref}" s="${DATE_STYLE}"><v>${this.serial(cellText(cells, at))}</v></c>`;
      } else xml += textCell(ref, cellText(cells, at));
    }
    return xml === ""
      ? ""
      : `<row r="${row}" spans="1:${end - start}" x14ac:dyDescent="0.25">${xml}</row>`;
  }

  private serial(date: string): string {
    let serial = this.serials.get(date);
    if (serial === undefined)
      this.serials.set(date, (serial = xmlEncode(String(dateSerial(date)))));
    return serial;
  }
}

/** One row as RowRenderer reads it: cells `start` … `end` of packed rows. */
interface RowSlice {
  cells: PackedRows;
  start: number;
  end: number;
}

function* packedRows(cells: PackedRows): Generator<RowSlice> {
  const slice: RowSlice = { cells, start: 0, end: 0 };
  for (const end of cells.ends) {
    slice.end = end;
    yield slice;
    slice.start = end;
  }
}
