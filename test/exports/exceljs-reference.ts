import { once } from "node:events";
import { createWriteStream } from "node:fs";
import ExcelJS from "exceljs";
import type { CellValue } from "../../src/exports/columns.ts";
import { CREATOR, DATE_FORMAT, type SheetSpec } from "../../src/exports/xlsx.ts";

/**
 * The reference the spreadsheet writer is compared with: the same sheet written by exceljs'
 * streaming writer and its row model, as the program wrote them before it wrote its own parts
 * (src/exports/xlsx-parts.ts). Every part must be byte-identical; the zip around them differs
 * (exceljs' archiver stamps the time of day and compresses in other chunks).
 */
export async function writeWithExcelJS(file: string, spec: SheetSpec): Promise<void> {
  const output = createWriteStream(file);
  const day = new Date(`${spec.properties.date}T00:00:00Z`);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = CREATOR;
  workbook.lastModifiedBy = CREATOR;
  workbook.created = day;
  workbook.modified = day;
  workbook.title = spec.properties.title;
  workbook.subject = spec.properties.subject;
  workbook.keywords = spec.properties.keywords;
  Object.assign(workbook, { language: spec.properties.language });
  const sheet = workbook.addWorksheet(spec.sheetName, {
    views: [{ state: "frozen", xSplit: 0, ySplit: 1, topLeftCell: "A2", activeCell: "A2" }],
  });
  sheet.columns = spec.widths.map((width) => ({ width }));
  sheet.autoFilter = {
    from: { row: 1, column: 1 },
    to: { row: spec.rowCount + 1, column: spec.headers.length },
  };
  const header = Object.assign(sheet.addRow(spec.headers.map(textCell)), { style: HEADER });
  header.eachCell((cell) => (cell.style = HEADER));
  header.commit();
  for (const cells of spec.rows) {
    const row = Object.assign(sheet.addRow(cells.map(cellValue)), { style: PLAIN });
    cells.forEach(
      (cell, index) => (row.getCell(index + 1).style = cell?.kind === "date" ? DATE : PLAIN),
    );
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
  if (!output.closed) await once(output, "close");
}

const PLAIN: Partial<ExcelJS.Style> = Object.freeze({});
const DATE: Partial<ExcelJS.Style> = Object.freeze({ numFmt: DATE_FORMAT });
const HEADER: Partial<ExcelJS.Style> = Object.freeze({
  font: Object.freeze({ name: "Calibri", family: 2, size: 11, bold: true }),
});

const textCell = (text: string): ExcelJS.CellRichTextValue => ({ richText: [{ text }] });

function cellValue(cell: CellValue): ExcelJS.CellValue {
  if (cell === null) return null;
  switch (cell.kind) {
    case "number":
      return cell.value;
    case "date":
      return new Date(`${cell.value}T00:00:00Z`);
    case "text":
      return textCell(cell.value);
  }
}
