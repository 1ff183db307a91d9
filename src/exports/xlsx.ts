import { once, type EventEmitter } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import ExcelJS from "exceljs";
import type { CellValue } from "./columns.ts";
import { pinZipDates } from "./zip-dates.ts";

/**
 * Writes one spreadsheet file of a single sheet with exceljs' streaming writer: each row is
 * committed (turned into XML and compressed) as soon as it is added, so memory does not grow
 * with the number of rows. The file is byte-for-byte a function of its inputs (see `pinZipDates`).
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

export const DATE_FORMAT = "yyyy-mm-dd";
export const CREATOR = "catalogue";
/** exceljs' default font (styles.xml's font 0). */
const DEFAULT_FONT = { name: "Calibri", family: 2, size: 11 } as const;

/** Rows between two checks of the zip entry's buffer (a check per row would cost more than it saves). */
const ROWS_PER_CHECK = 200;

/** What the writing took: the most bytes of XML ever waiting to be compressed (memory held by the sheet). */
export interface SheetStats {
  peakBuffered: number;
}

export async function writeSheet(file: string, spec: SheetSpec): Promise<SheetStats> {
  const output = createWriteStream(file);
  // A failed write (disk full, missing folder) stops the zip from draining: without this the
  // waits below would hang instead of failing.
  const abort = new AbortController();
  const failed = new Promise<never>((_, reject) => output.on("error", reject));
  failed.catch((error: unknown) => abort.abort(error));
  let stats: SheetStats;
  try {
    stats = await writeWorkbook(output, spec, abort.signal, failed);
  } catch (error) {
    output.destroy();
    // An aborted wait reports AbortError; the write's own error says what went wrong.
    throw abort.signal.aborted ? abort.signal.reason : error;
  }
  await pinZipDates(file, spec.properties.date);
  return stats;
}

async function writeWorkbook(output: WriteStream, spec: SheetSpec, signal: AbortSignal, failed: Promise<never>): Promise<SheetStats> {
  const day = utcMidnight(spec.properties.date);
  // Shared strings would keep every distinct text of the sheet in memory until the end; inline
  // strings are written with their row.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
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

  const header = sheet.addRow(spec.headers.map(textCell));
  // The whole default font, bold: a font element holding only <b/> has no size for Excel to use.
  header.font = { ...DEFAULT_FONT, bold: true };
  header.commit();

  let written = 0;
  let peakBuffered = 0;
  for (const cells of spec.rows) {
    const row = sheet.addRow(cells.map(cellValue));
    cells.forEach((cell, index) => {
      if (cell?.kind === "date") row.getCell(index + 1).numFmt = DATE_FORMAT;
    });
    row.commit();
    if (++written % ROWS_PER_CHECK === 0) peakBuffered = Math.max(peakBuffered, await drained(sheet, signal));
  }
  if (written !== spec.rowCount) throw new Error(`bug: ${spec.sheetName}: ${written} rows written, ${spec.rowCount} announced`);
  sheet.commit();
  await Promise.race([workbook.commit(), failed]);
  if (!output.closed) await Promise.race([once(output, "close"), failed]);
  return { peakBuffered };
}

const utcMidnight = (date: string) => new Date(`${date}T00:00:00Z`);

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
