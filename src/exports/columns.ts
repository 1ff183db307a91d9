import type { AudiovisualType, Domain } from "../content/schema.ts";
import type { ListedWork } from "../model/domain-view.ts";
import { workDir } from "../web/urls.ts";

/**
 * The columns of every spreadsheet, in order. docs/interface.md#exports fixes the first eight (the API's field
 * names); the rest are what staff need to act on a row without opening the catalogue.
 */

/** A cell before it is written: a number, a calendar day (YYYY-MM-DD), text, or empty. */
export type CellValue =
  | { kind: "number"; value: number }
  | { kind: "date"; value: string }
  | { kind: "text"; value: string }
  | null;

export interface ColumnContext {
  domain: Domain;
  /** The category labels of the domain's interface language. */
  categories: Record<AudiovisualType, string>;
}

export type CellKind = "number" | "date" | "text";

export interface Column {
  header: string;
  /** The widest the column gets, in characters: a longer value is cut off on screen, not the sheet widened. */
  maxWidth: number;
  /** What its cells hold: a number, a calendar day (YYYY-MM-DD) or text. */
  kind: CellKind;
  /** A work's value in this column; null for an empty cell. */
  value(listed: ListedWork, context: ColumnContext): number | string | null;
}

/** The absolute address of a work's page in the HTML catalogue (docs/interface.md#site-urls). */
const detailPageUrl = (domain: Domain, id: number, slug: string) =>
  `${domain.base_url}/${workDir(id, slug)}`;

export const COLUMNS: readonly Column[] = [
  { header: "id", maxWidth: 12, kind: "number", value: ({ work }) => work.id },
  { header: "name", maxWidth: 60, kind: "text", value: ({ work }) => work.name },
  { header: "slug", maxWidth: 40, kind: "text", value: ({ work }) => work.slug },
  {
    header: "audiovisual_type",
    maxWidth: 20,
    kind: "text",
    value: ({ work }) => work.audiovisual_type,
  },
  {
    header: "director",
    maxWidth: 40,
    kind: "text",
    value: ({ director }) => director?.name ?? null,
  },
  { header: "year", maxWidth: 6, kind: "number", value: ({ work }) => work.year },
  { header: "available_from", maxWidth: 14, kind: "date", value: ({ window }) => window.from },
  { header: "available_until", maxWidth: 14, kind: "date", value: ({ window }) => window.until },
  // Minutes, as in audiovisuals.csv and the API's retrieve.
  { header: "duration", maxWidth: 10, kind: "number", value: ({ work }) => work.duration },
  {
    header: "url",
    maxWidth: 80,
    kind: "text",
    value: ({ work }, { domain }) => detailPageUrl(domain, work.id, work.slug),
  },
  {
    header: "director_slug",
    maxWidth: 40,
    kind: "text",
    value: ({ director }) => director?.slug ?? null,
  },
  {
    header: "category",
    maxWidth: 20,
    kind: "text",
    value: ({ work }, { categories }) =>
      work.audiovisual_type === null ? null : categories[work.audiovisual_type],
  },
];

/** Width of a date cell shown as yyyy-mm-dd, with room for the filter button. */
const DATE_WIDTH = 13;
/** Room for the autofilter's drop-down button beside the header. */
const FILTER_BUTTON = 3;

/** The cells of one work, in column order. */
export const rowCells = (listed: ListedWork, context: ColumnContext): CellValue[] =>
  COLUMNS.map((column) => {
    const value = column.value(listed, context);
    return value === null ? null : ({ kind: column.kind, value } as CellValue);
  });

/**
 * Column widths (in characters) that fit the header and the longest value, capped. A streamed
 * sheet writes its widths before its rows, so this is a first pass over the rows; it keeps
 * nothing of them, so memory does not grow with the row count.
 */
export function columnWidths(
  rows: Iterable<CellValue[]>,
  columns: readonly Column[] = COLUMNS,
): number[] {
  const widths = new ColumnWidths(columns);
  for (const row of rows) widths.add(row);
  return widths.widths();
}

/** Column widths measured a row at a time, as another pass over the rows goes (see writeExports). */
export class ColumnWidths {
  private readonly headerWidths: number[];
  private readonly longest: number[];
  constructor(private readonly columns: readonly Column[] = COLUMNS) {
    this.headerWidths = columns.map((column) => column.header.length + FILTER_BUTTON);
    this.longest = [...this.headerWidths];
  }

  add(row: readonly CellValue[]): void {
    for (let index = 0; index < row.length; index++) {
      const cell = row[index]!;
      if (cell !== null) this.measure(index, cell.kind, cell.value);
    }
  }

  /** Measures a value of column `index` (nothing for an empty cell). */
  measure(index: number, kind: CellKind, value: number | string | null): void {
    if (value === null) return;
    const length = kind === "date" ? DATE_WIDTH : String(value).length + 1;
    if (length > this.longest[index]!) this.longest[index] = length;
  }

  widths(): number[] {
    return this.longest.map((width, index) =>
      Math.min(width, Math.max(this.columns[index]!.maxWidth, this.headerWidths[index]!)),
    );
  }
}
