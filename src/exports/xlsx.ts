import { createHash } from "node:crypto";
import { once, type EventEmitter } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { createRequire } from "node:module";
import type ExcelJS from "exceljs";
import type { CellValue } from "./columns.ts";
import type { PackedRows } from "../workers/rows.ts";
import { pinZipDates } from "./zip-dates.ts";

/**
 * Writes one spreadsheet file of a single sheet with exceljs' streaming writer: rows are turned
 * into XML and compressed as they come, so memory does not grow with the number of rows. The
 * file is byte-for-byte a function of its inputs (see `pinZipDates`).
 *
 * exceljs writes the workbook: the zip, every part, the styles, the sheet's views, columns, header
 * row and autofilter. The data rows' XML is made here (`rowXml`) with exceljs' own escaping and
 * date conversion, exactly as exceljs' row model renders it: that model (a Row and a Cell object
 * per cell, a style lookup per cell, an XML stream per row) took about 70 µs a row, a second
 * for a 13,600-row sheet, and was most of what a rebuild after one renamed title waited for.
 * `test/exports/xlsx.test.ts` writes the same sheets through exceljs' row model and checks that
 * every part of the file is byte-identical, on tricky and on random texts.
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
 * Part of every sheet's key: bump it whenever writeSheet writes other bytes for the same spec
 * (styles, properties, layout), or the previous build's files would be kept with the old look.
 */
const WRITER_VERSION = "catalogue-xlsx-3";
/** exceljs and zlib write the bytes too: an upgrade of either writes the files again. */
const ENGINE = `exceljs ${(createRequire(import.meta.url)("exceljs/package.json") as { version: string }).version}, zlib ${process.versions.zlib}`;

/** A spec without its rows: what the key covers besides them. */
export type SheetHead = Omit<SheetSpec, "rows">;

/**
 * The digest of a sheet's rows, from the rows packed for the writer (one pass over the rows makes,
 * measures and packs the cells: see writeExports): the rows' ends, the cells' kinds, and the
 * values as one JSON array (JSON tells numbers, texts and empty cells apart, and no two arrays
 * give the same text), so no two different sheets give the same bytes. One native call per
 * sheet, where a text per row (`t5:Hielo`) made a tenth of the main thread's allocations.
 */
export function rowsDigest({ kinds, values, ends }: PackedRows): string {
  return createHash("md5").update(`rows-v3\n${ends.join(",")}\n`).update(kinds).update(JSON.stringify(values)).digest("hex");
}

/**
 * The key of a sheet (for FileSink.reuse): an MD5 of everything writeSheet's bytes are made of:
 * the writer's version, exceljs' and zlib's, the spec (sheet name, headers, widths, row count,
 * properties with the date) and the digest of its rows (`rowsDigest`).
 */
export function sheetKey(head: SheetHead, rowsDigest: string): string {
  const { sheetName, headers, widths, rowCount, properties } = head;
  const { title, subject, keywords, language, date } = properties;
  // Listed field by field, so that the key does not depend on the order properties were set in.
  const spec = [WRITER_VERSION, ENGINE, sheetName, headers, widths, rowCount, title, subject, keywords, language, date];
  return createHash("md5").update(JSON.stringify(spec)).update("\n").update(rowsDigest).digest("hex");
}

export const DATE_FORMAT = "yyyy-mm-dd";
export const CREATOR = "catalogue";
/** exceljs' default font (styles.xml's font 0). */
const DEFAULT_FONT = { name: "Calibri", family: 2, size: 11 } as const;

/**
 * The style of every cell, shared by kind. exceljs gives each new cell a style object of its own
 * and, to find its index in styles.xml, renders that object's XML once per cell: about a third
 * of the writing time. Its StylesXform remembers the index of a style object it has already seen
 * (a WeakMap keyed by the object), so cells (and rows) sharing one object skip that.
 * They are frozen because they are shared: `cell.numFmt = …` or `cell.font = …` would write into
 * the style of every cell holding it.
 */
const PLAIN_STYLE: Partial<ExcelJS.Style> = Object.freeze({});
const DATE_STYLE: Partial<ExcelJS.Style> = Object.freeze({ numFmt: DATE_FORMAT });
// The whole default font, bold: a font element holding only <b/> has no size for Excel to use.
const HEADER_STYLE: Partial<ExcelJS.Style> = Object.freeze({ font: Object.freeze({ ...DEFAULT_FONT, bold: true }) });

/** Rows between two checks of the zip entry's buffer (a check per row would cost more than it saves). */
const ROWS_PER_CHECK = 200;

/** What the writing took: the most bytes of XML ever waiting to be compressed (memory held by the sheet). */
export interface SheetStats {
  peakBuffered: number;
}

/** How the data rows are written: by this module (`rowXml`), or through exceljs' row model (the reference the tests compare with). */
export type RowWriter = "catalogue" | "exceljs";

export async function writeSheet(file: string, spec: SheetSpec, rowWriter: RowWriter = "catalogue"): Promise<SheetStats> {
  const output = createWriteStream(file);
  // A failed write (disk full, missing folder) stops the zip from draining: without this the
  // waits below would hang instead of failing.
  const abort = new AbortController();
  const failed = new Promise<never>((_, reject) => output.on("error", reject));
  failed.catch((error: unknown) => abort.abort(error));
  let stats: SheetStats;
  try {
    stats = await writeWorkbook(output, spec, abort.signal, failed, rowWriter);
  } catch (error) {
    output.destroy();
    // An aborted wait reports AbortError; the write's own error says what went wrong.
    throw abort.signal.aborted ? abort.signal.reason : error;
  }
  await pinZipDates(file, spec.properties.date);
  return stats;
}

/** What this module uses of exceljs. */
interface ExcelWriter {
  WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter;
  ValueType: typeof ExcelJS.ValueType;
}
let excelWriter: ExcelWriter | undefined;

/**
 * exceljs' streaming writer and its enums, loaded on first use: a build whose spreadsheets are
 * all kept never needs them. Its own modules, not the package's entry, which also loads the
 * readers and the whole workbook model with their dependencies (461 modules and 0.34 s of CPU
 * against 204 and 0.19 s). A writer thread loads it ahead of its first spreadsheet
 * (src/workers/writer.ts).
 */
export function loadExceljs(): ExcelWriter {
  if (excelWriter === undefined) {
    const load = createRequire(import.meta.url);
    excelWriter = {
      WorkbookWriter: load("exceljs/lib/stream/xlsx/workbook-writer.js") as ExcelWriter["WorkbookWriter"],
      ValueType: (load("exceljs/lib/doc/enums.js") as { ValueType: ExcelWriter["ValueType"] }).ValueType,
    };
  }
  return excelWriter;
}

async function writeWorkbook(output: WriteStream, spec: SheetSpec, signal: AbortSignal, failed: Promise<never>, rowWriter: RowWriter): Promise<SheetStats> {
  const day = utcMidnight(spec.properties.date);
  // Shared strings would keep every distinct text of the sheet in memory until the end; inline
  // strings are written with their row.
  const exceljs = loadExceljs();
  const workbook = new exceljs.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = CREATOR;
  workbook.lastModifiedBy = CREATOR;
  workbook.created = day;
  workbook.modified = day;
  workbook.title = spec.properties.title;
  workbook.subject = spec.properties.subject;
  workbook.keywords = spec.properties.keywords;
  // exceljs writes dc:language from this field but leaves it out of its typings.
  Object.assign(workbook, { language: spec.properties.language });

  const sheet = workbook.addWorksheet(spec.sheetName, {
    views: [{ state: "frozen", xSplit: 0, ySplit: 1, topLeftCell: "A2", activeCell: "A2" }],
  });
  sheet.columns = spec.widths.map((width) => ({ width }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: spec.rowCount + 1, column: spec.headers.length } };

  // A row has a style of its own too (written as the row's `s`), left out of exceljs' typings.
  const header = Object.assign(sheet.addRow(spec.headers.map(textCell)), { style: HEADER_STYLE });
  header.eachCell((cell) => (cell.style = HEADER_STYLE));
  header.commit();

  let written = 0;
  let peakBuffered = 0;
  if (rowWriter === "exceljs") {
    for (const cells of spec.rows) {
      const row = Object.assign(sheet.addRow(cells.map(cellValue)), { style: PLAIN_STYLE });
      // addRow made each cell its own style object: swap in the shared one of its kind.
      cells.forEach((cell, index) => (row.getCell(index + 1).style = cell?.kind === "date" ? DATE_STYLE : PLAIN_STYLE));
      row.commit();
      if (++written % ROWS_PER_CHECK === 0) peakBuffered = Math.max(peakBuffered, await drained(sheet, signal));
    }
  } else {
    // The rows go into the sheet's part after the committed header row, where exceljs' row model
    // writes them. The date style is registered on first use, as exceljs does (a sheet without a
    // date has no date style in styles.xml).
    const styles = (workbook as unknown as { styles: { addStyleModel(style: unknown, type: number): number } }).styles;
    let dateStyle: number | undefined;
    const dateStyleId = () => (dateStyle ??= styles.addStyleModel(DATE_STYLE, exceljs.ValueType.Date));
    const part = (sheet as unknown as { stream: { write(text: string): void } }).stream;
    let xml = "";
    for (const cells of spec.rows) {
      xml += rowXml(written + 2, cells, dateStyleId);
      if (++written % ROWS_PER_CHECK === 0) {
        part.write(xml);
        xml = "";
        peakBuffered = Math.max(peakBuffered, await drained(sheet, signal));
      }
    }
    part.write(xml);
  }
  if (written !== spec.rowCount) throw new Error(`bug: ${spec.sheetName}: ${written} rows written, ${spec.rowCount} announced`);
  sheet.commit();
  await Promise.race([workbook.commit(), failed]);
  if (!output.closed) await Promise.race([once(output, "close"), failed]);
  return { peakBuffered };
}

const utcMidnight = (date: string) => new Date(`${date}T00:00:00Z`);

interface ExcelHelpers {
  xmlEncode(text: string): string;
  dateToExcel(date: Date): number;
  n2l(column: number): string;
}
let helpers: ExcelHelpers | undefined;
/** exceljs' own XML escaping, date serial numbers and column letters (CommonJS modules of its package), loaded on first use. */
function excel(): ExcelHelpers {
  if (helpers === undefined) {
    const load = createRequire(import.meta.url);
    // Called as methods: they are object literals' members, col-cache's uses `this`.
    const utils = load("exceljs/lib/utils/utils.js") as ExcelHelpers;
    const columns = load("exceljs/lib/utils/col-cache.js") as ExcelHelpers;
    helpers = { xmlEncode: (text) => utils.xmlEncode(text), dateToExcel: (date) => utils.dateToExcel(date), n2l: (column) => columns.n2l(column) };
  }
  return helpers;
}

/**
 * One data row as exceljs' RowXform and CellXform render it for our cells: every cell of the row
 * counts in `spans`, an empty cell with the default style is left out, numbers and dates as `<v>`
 * (dates with the date style), text as an inline rich-text string with `xml:space="preserve"`
 * when it starts or ends with white space or holds a line break. A row without a value is not
 * written at all.
 */
function rowXml(row: number, cells: CellValue[], dateStyleId: () => number): string {
  if (cells.every((cell) => cell === null)) return "";
  const { xmlEncode, dateToExcel, n2l } = excel();
  let xml = `<row r="${row}"${cells.length > 0 ? ` spans="1:${cells.length}"` : ""} x14ac:dyDescent="0.25">`;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (cell === null) continue;
    const ref = `${n2l(i + 1)}${row}`;
    switch (cell.kind) {
      case "number":
        xml += `<c r="${ref}"><v>${xmlEncode(String(cell.value))}</v></c>`;
        break;
      case "date":
        xml += `<c r="${ref}" s="${dateStyleId()}"><v>${xmlEncode(String(dateToExcel(utcMidnight(cell.value))))}</v></c>`;
        break;
      case "text": {
        const preserve = /^\s|\n|\s$/.test(cell.value) ? ' xml:space="preserve"' : "";
        xml += `<c r="${ref}" t="inlineStr"><is><r><t${preserve}>${xmlEncode(cell.value)}</t></r></is></c>`;
        break;
      }
    }
  }
  return `${xml}</row>`;
}

/**
 * Text as an inline rich-text string (`t="inlineStr"`): the cell type the format defines for
 * text held in the sheet itself. exceljs would otherwise write a plain string as `t="str"`, the
 * type of a formula's cached result. Either way no `<f>` element is written, so a title such
 * as `=1+1` or `@SUM(A1)` is shown as typed and never evaluated.
 */
const textCell = (text: string): ExcelJS.CellRichTextValue => ({ richText: [{ text }] });

function cellValue(cell: CellValue): ExcelJS.CellValue {
  if (cell === null) return null;
  switch (cell.kind) {
    case "number":
      return cell.value;
    // A real date cell: exceljs stores the serial number of UTC midnight of that day.
    case "date":
      return utcMidnight(cell.value);
    case "text":
      return textCell(cell.value);
  }
}

/** The zip entry's stream, as far as the backpressure check needs it. */
type ZipEntry = EventEmitter & { _writableState?: { length: number; needDrain: boolean } };

/**
 * Waits until the sheet's zip entry has taken what was written; returns how many bytes it held.
 * exceljs' StreamBuf ignores backpressure and pushes every committed row into the entry's
 * PassThrough stream, so a loop that never waits would hold the whole sheet's XML in memory
 * before compressing it. That PassThrough comes from archiver 5's readable-stream@2, which has no
 * `writableNeedDrain`: `_writableState.needDrain` is what both it and Node's streams set.
 */
async function drained(sheet: ExcelJS.Worksheet, signal: AbortSignal): Promise<number> {
  const entry = (sheet as unknown as { stream: { pipes?: ZipEntry[] } }).stream.pipes?.[0];
  const state = entry?._writableState;
  if (entry === undefined || state === undefined) throw new Error("bug: exceljs' sheet stream is not piped into the zip (exceljs internals changed?)");
  const buffered = state.length;
  if (state.needDrain) await once(entry, "drain", { signal });
  return buffered;
}
