import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import type { Problem } from "../errors.ts";

/** A data row: trimmed cells by column name (null = empty, "absent") and the line it starts on. */
export interface CsvRow {
  line: number;
  cells: Record<string, string | null>;
}

export interface CsvTable {
  rows: CsvRow[];
  problems: Problem[];
  warnings: Problem[];
}

export interface CsvColumns {
  required: readonly string[];
  optional: readonly string[];
}

/**
 * Reads one CSV file of the content folder. `file` is the name shown in messages. The file's
 * problems are returned, never thrown, so that one run reports every file's problems at once.
 */
export async function readCsv(path: string, file: string, columns: CsvColumns): Promise<CsvTable> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === "ENOENT"
        ? `file is missing: create it with the header row "${columns.required.join(",")}"`
        : `cannot read the file (${code ?? String(error)})`;
    return { rows: [], problems: [{ file, message }], warnings: [] };
  }
  const text = decodeUtf8(bytes, file);
  if (typeof text !== "string") return { rows: [], problems: [text], warnings: [] };
  return parseCsv(text, file, columns);
}

/** Strict UTF-8: a wrong encoding is reported at its line instead of turning into U+FFFD. */
function decodeUtf8(bytes: Buffer, file: string): string | Problem {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          decoder.decode(bytes.subarray(start, i));
        } catch {
          return { file, line, message: "invalid UTF-8: save the file as UTF-8" };
        }
        line++;
        start = i + 1;
      }
    }
    return { file, line: 1, message: "invalid UTF-8: save the file as UTF-8" };
  }
}

export function parseCsv(source: string, file: string, columns: CsvColumns): CsvTable {
  // One line-end convention before parsing, so CRLF, LF and CR files count lines alike.
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const records: { record: string[]; lines: number }[] = [];
  let lastLine = 0;
  try {
    parse(text, {
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        lastLine = context.lines;
        records.push({ record, lines: context.lines });
        return null;
      },
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const line = (error as { lines?: number }).lines;
    if (code === "CSV_QUOTE_NOT_CLOSED") {
      const start = firstNonEmptyLineAfter(text, lastLine);
      return {
        rows: [],
        problems: [{ file, line: start, message: "a quoted field is never closed: add the closing double quote" }],
        warnings,
      };
    }
    const reason = (error as Error).message.replace(/ at line \d+.*$/s, "");
    return { rows: [], problems: [{ file, line, message: `malformed CSV: ${reason}` }], warnings };
  }

  const [header, ...body] = records;
  if (header === undefined) {
    return {
      rows: [],
      problems: [{ file, line: 1, message: `the file is empty: add the header row "${columns.required.join(",")}"` }],
      warnings,
    };
  }
  const names = header.record.map((name) => name.trim());
  const known = new Set([...columns.required, ...columns.optional]);
  const seen = new Set<string>();
  names.forEach((name) => {
    if (seen.has(name)) problems.push({ file, line: 1, column: shownColumn(name), message: "column appears twice in the header" });
    seen.add(name);
    if (!known.has(name)) warnings.push({ file, line: 1, column: shownColumn(name), message: "unknown column, ignored" });
  });
  for (const name of columns.required) {
    if (!seen.has(name)) problems.push({ file, line: 1, column: name, message: "required column is missing from the header" });
  }

  const rows: CsvRow[] = [];
  for (const { record, lines } of body) {
    // csv-parse reports the line a record ends on; a quoted field may span several lines.
    const spanned = record.reduce((n, cell) => n + countNewlines(cell), 0);
    const line = lines - spanned;
    if (record.length > names.length) {
      problems.push({ file, line, message: `${record.length} fields but the header has ${names.length}: quote cells that contain commas` });
    }
    // Optional columns left out of the header read as empty cells.
    const cells: Record<string, string | null> = Object.fromEntries([...known].map((name) => [name, null]));
    names.forEach((name, index) => {
      if (!known.has(name)) return;
      const value = record[index]?.trim() ?? "";
      cells[name] = value === "" ? null : value;
    });
    rows.push({ line, cells });
  }
  return { rows, problems, warnings };
}

/** A header name as messages show it: quoted when odd, so a line break in it cannot split a message. */
function shownColumn(name: string): string {
  return /^[\w.-]+$/.test(name) ? name : JSON.stringify(name);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

function firstNonEmptyLineAfter(text: string, line: number): number {
  const lines = text.split("\n");
  let index = line;
  while (index < lines.length && lines[index]!.trim() === "") index++;
  return index + 1;
}
