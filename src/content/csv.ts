import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import type { Problem } from "../errors.ts";
import { decodeText } from "./encoding.ts";
import {
  DELIMITER_NAMES,
  delimiterOf,
  guessNote,
  headerCounts,
  type Delimiter,
} from "./separator.ts";
import { closest } from "./suggest.ts";

export { detectDelimiter, type Delimiter } from "./separator.ts";

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
  /** The columns of the other content files, by name: the files a column unknown here belongs in. */
  elsewhere?: ReadonlyMap<string, readonly string[]>;
}

/**
 * Reads one CSV file of the content folder: `name` in `root` (the folder's real path). `file` is
 * the name shown in messages. The file's problems are returned, never thrown, so that one run
 * reports every file's problems at once. A file that is a link is read where it leads only
 * inside the content folder: a link out of it is refused without reading it (the content is
 * what the library keeps and reviews in that folder, and a message would echo the first line
 * of whatever file the link names).
 */
export async function readCsv(
  root: string,
  name: string,
  file: string,
  columns: CsvColumns,
): Promise<CsvTable> {
  let bytes: Buffer;
  try {
    const real = await realpath(path.join(root, name));
    if (!real.startsWith(root + path.sep)) {
      return {
        rows: [],
        problems: [
          {
            file,
            message: `a link to ${real}, outside the content folder: copy the file into the content folder instead`,
          },
        ],
        warnings: [],
      };
    }
    bytes = await readFile(real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === "ENOENT"
        ? `file is missing: create it with the header row "${columns.required.join(",")}"`
        : code === "EISDIR"
          ? "a folder, not a file: the content folder holds the four CSV files themselves"
          : `cannot read the file (${code ?? String(error)})`;
    return { rows: [], problems: [{ file, message }], warnings: [] };
  }
  const text = decodeText(bytes, file);
  if (typeof text !== "string") return { rows: [], problems: [text], warnings: [] };
  return parseCsv(text, file, columns);
}

/** Reads decoded text (`readCsv` decodes strictly, so it never holds a lone surrogate). */
export function parseCsv(source: string, file: string, columns: CsvColumns): CsvTable {
  // One line-end convention before parsing, so CRLF, LF and CR files count lines alike.
  let text = source.replace(/^\uFEFF/, "");
  if (text.includes("\r")) text = text.replace(/\r\n?/g, "\n");
  const counts = headerCounts(text);
  const delimiter = delimiterOf(counts);
  const note = guessNote(delimiter, counts);
  let table = new TableReader(file, columns, delimiter, note);
  if (!splitRecords(text, table.add, delimiter)) {
    table = new TableReader(file, columns, delimiter, note);
    const problem = splitRecordsWithCsvParse(text, file, table.add, delimiter);
    if (problem !== undefined)
      return {
        rows: [],
        problems: [{ ...problem, message: problem.message + note }],
        warnings: [],
      };
  }
  return table.finish();
}

/** Receives each record and the line it starts on; `fields` is reused for the next record. */
export type RecordVisitor = (fields: readonly string[], line: number) => void;

/** Turns records into rows: the first is the header, the others cells by column name. */
class TableReader {
  private rows: CsvRow[] = [];
  private problems: Problem[] = [];
  private warnings: Problem[] = [];
  private names: string[] | undefined;
  /** A row with every known column empty, copied for each row so all rows share one shape. */
  private empty: Record<string, string | null> = {};
  /** The header's known columns, in header order (a repeated name: the last one wins). */
  private slots: { name: string; index: number }[] = [];

  constructor(
    private readonly file: string,
    private readonly columns: CsvColumns,
    private readonly delimiter: Delimiter = ",",
    /** Why the file was read with that separator, when the header also held another. */
    private readonly note = "",
  ) {}

  add: RecordVisitor = (fields, line) => {
    const { file, names } = this;
    if (names === undefined) return this.header(fields);
    if (fields.length > names.length) {
      this.problems.push({
        file,
        line,
        message: `${fields.length} fields but the header has ${names.length}: quote cells that contain ${DELIMITER_NAMES[this.delimiter]}${this.note}`,
      });
    }
    // Optional columns left out of the header read as empty cells.
    const cells = { ...this.empty };
    for (const { name, index } of this.slots) {
      const value = fields[index]?.trim() ?? "";
      cells[name] = value === "" ? null : value;
    }
    this.rows.push({ line, cells });
  };

  private header(fields: readonly string[]) {
    const { file, columns, problems, warnings } = this;
    const names = fields.map((name) => name.trim());
    const known = [...new Set([...columns.required, ...columns.optional])];
    const seen = new Set<string>();
    names.forEach((name) => {
      if (seen.has(name))
        problems.push({
          file,
          line: 1,
          column: shownColumn(name),
          message: "column appears twice in the header",
        });
      seen.add(name);
    });
    // A typo of a required column is one error, its own, naming the column meant (not also "missing").
    const missing = new Set(columns.required.filter((name) => !seen.has(name)));
    const absent = known.filter((name) => !seen.has(name));
    for (const name of new Set(names)) {
      if (known.includes(name)) continue;
      const at = { file, line: 1, column: shownColumn(name) };
      // A column of another file: where it goes, rather than a near name of this one.
      const home = columns.elsewhere?.get(name);
      if (home !== undefined) {
        warnings.push({
          ...at,
          message: `this column belongs in ${home.join(" or ")}, not in this file`,
          otherwise: "ignored here",
        });
        continue;
      }
      const meant = closest(name, missing) ?? closest(name, absent);
      if (meant !== undefined && missing.delete(meant))
        problems.push({ ...at, message: `unknown column; did you mean ${JSON.stringify(meant)}?` });
      else
        warnings.push({
          ...at,
          message: `unknown column${meant === undefined ? "" : ` (did you mean ${JSON.stringify(meant)}?)`}`,
          otherwise: "ignored",
        });
    }
    for (const name of missing)
      problems.push({
        file,
        line: 1,
        column: name,
        message: "required column is missing from the header",
      });
    for (const name of known) this.empty[name] = null;
    this.slots = names.flatMap((name, index) => (known.includes(name) ? [{ name, index }] : []));
    this.names = names;
  }

  finish(): CsvTable {
    const { file, columns, rows, problems, warnings } = this;
    if (this.names === undefined) {
      return {
        rows: [],
        problems: [
          {
            file,
            line: 1,
            message: `the file is empty: add the header row "${columns.required.join(",")}"`,
          },
        ],
        warnings,
      };
    }
    return { rows, problems, warnings };
  }
}

/**
 * Splits `text` (LF line ends only) into records and the line each starts on. Returns false, at
 * once, when the text holds anything but plain records: a quote that opens inside a cell, text
 * after a closing quote, a quote never closed; such a file is read again by csv-parse
 * (`splitRecordsWithCsvParse`), which words the problem. This path exists because csv-parse's
 * per-record line bookkeeping costs more than the parse itself. On every text it accepts it visits
 * what csv-parse would: fields split at the delimiter (a comma unless told), `""` inside quotes for one quote, empty lines
 * skipped (a line holding `""` is a record).
 */
export function splitRecords(
  text: string,
  visit: RecordVisitor,
  delimiter: Delimiter = ",",
): boolean {
  const SEP = delimiter.charCodeAt(0);
  const fields: string[] = [];
  const end = text.length;
  let pos = 0;
  let line = 1;
  let nextQuote = -1; // the first quote at or after pos (end + 1: none), sought again once pos passes it
  while (pos < end) {
    if (text.charCodeAt(pos) === NL) {
      line++;
      pos++;
      continue;
    }
    if (nextQuote < pos) {
      nextQuote = text.indexOf('"', pos);
      if (nextQuote === -1) nextQuote = end + 1;
    }
    let lineEnd = text.indexOf("\n", pos);
    if (lineEnd === -1) lineEnd = end;
    // Most lines hold no quote: their fields are the text between commas.
    if (nextQuote > lineEnd) {
      visit(text.slice(pos, lineEnd).split(delimiter), line);
      line++;
      pos = lineEnd + 1;
      continue;
    }
    const start = line;
    fields.length = 0;
    for (;;) {
      let field: string;
      if (text.charCodeAt(pos) === QUOTE) {
        field = "";
        pos++;
        for (;;) {
          const close = text.indexOf('"', pos);
          if (close === -1) return false;
          const chunk = text.slice(pos, close);
          line += countNewlines(chunk);
          if (text.charCodeAt(close + 1) === QUOTE) {
            field += chunk + '"';
            pos = close + 2;
          } else {
            field += chunk;
            pos = close + 1;
            break;
          }
        }
        const next = text.charCodeAt(pos);
        if (next !== SEP && next !== NL && pos < end) return false;
      } else {
        const from = pos;
        let code = text.charCodeAt(pos);
        while (pos < end && code !== SEP && code !== NL) {
          if (code === QUOTE) return false;
          code = text.charCodeAt(++pos);
        }
        field = text.slice(from, pos);
      }
      fields.push(field);
      if (pos < end && text.charCodeAt(pos) === SEP) {
        pos++;
        continue;
      }
      break;
    }
    visit(fields, start);
    // At a line end or the end of the text: the next record starts on the next line.
    line++;
    pos++;
  }
  return true;
}

const NL = 0x0a;
const QUOTE = 0x22;

/** The same split through csv-parse, whose errors name what is wrong; the problem when it fails. */
export function splitRecordsWithCsvParse(
  text: string,
  file: string,
  visit: RecordVisitor,
  delimiter: Delimiter = ",",
): Problem | undefined {
  let lastLine = 0;
  try {
    parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        lastLine = context.lines;
        // csv-parse reports the line a record ends on; a quoted field may span several lines.
        const spanned = record.reduce((n, cell) => n + countNewlines(cell), 0);
        visit(record, context.lines - spanned);
        return null;
      },
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const line = (error as { lines?: number }).lines;
    if (code === "CSV_QUOTE_NOT_CLOSED") {
      return {
        file,
        line: firstNonEmptyLineAfter(text, lastLine),
        message: "a quoted field is never closed: add the closing double quote",
      };
    }
    const reason = (error as Error).message.replace(/ at line \d+.*$/s, "");
    return { file, line, message: `malformed CSV: ${reason}` };
  }
  return undefined;
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
