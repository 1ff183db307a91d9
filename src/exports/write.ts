import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { EXPORT_KINDS, exportPath, type ExportKind } from "../api/layout.ts";
import { dateOfDay, dayNumber } from "../util/dates.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import type { Domain } from "../content/schema.ts";
import { inputsDigest } from "../model/work-digests.ts";
import { md5 } from "../util/hash.ts";
import { UserError } from "../errors.ts";
import type { FileSink } from "../output/sink.ts";
import { stringsFor } from "../web/i18n.ts";
import { COLUMNS, ColumnWidths, type ColumnContext } from "./columns.ts";
import { exportTexts, type ExportFacts } from "./sheet-labels.ts";
import { sheetKey, writeSheet, type SheetKeyHead, type SheetSpec } from "./xlsx.ts";
import { KIND_CODES, PackedSheetRows, RowPacker } from "./rows.ts";

/** The rows of each spreadsheet: all listed works, the ups, the downs (docs/interface.md#windows), in name order. */
const ROWS: Record<ExportKind, (view: DomainView) => ListedWork[]> = {
  export_excel: (view) => view.orders.name,
  export_up_movies: (view) => view.ups,
  export_down_movies: (view) => view.downs,
};

/**
 * Writes the three spreadsheets of one domain (export_excel, export_up_movies, export_down_movies).
 * Their download names (build.json's `exports`) are the servers' business: nothing in the files
 * depends on them.
 *
 * Each file is keyed by a digest of everything its bytes are made of (see `sheetKey` and
 * `rowsKey`): when the previous build wrote it with the same key, it is kept as it is, and its
 * rows are not even made.
 */
export async function writeExports(
  tree: FileSink,
  view: DomainView,
  workDigests: ReadonlyMap<ListedWork, string>,
  sheets: SheetWriter = writeSheet,
): Promise<void> {
  const { domain } = view;
  const strings = stringsFor(domain.locale);
  const context: ColumnContext = { domain, categories: strings.categories };
  const facts = exportFacts(view);
  const toWrite: { rel: string; key: string; spec: SheetSpec }[] = [];
  for (const kind of EXPORT_KINDS) {
    const works = ROWS[kind](view);
    const texts = exportTexts(strings, kind, facts);
    const head: SheetKeyHead = {
      sheetName: texts.sheet,
      headers: COLUMNS.map((column) => column.header),
      rowCount: works.length,
      properties: {
        title: texts.title,
        subject: texts.subject,
        keywords: ["catalogue", domain.domain, kind, view.date].join("; "),
        language: domain.locale,
        date: view.date,
      },
    };
    const rel = exportPath(domain.domain, kind);
    // The category labels in the rows come from the language's texts: a corrected one rewrites the sheets.
    const key = sheetKey(
      head,
      `${strings.digest}
${rowsKey(domain, works, workDigests)}`,
    );
    if (tree.reuse(rel, key)) continue;
    // One loop measures and packs the rows, each value straight from its column (a cell object
    // per value, hundreds of thousands a build, was made only to be read twice; a generator's
    // step per row and pass cost more than the row).
    const packer = new RowPacker(works.length);
    const widths = new ColumnWidths();
    for (const listed of works) {
      for (let c = 0; c < COLUMNS.length; c++) {
        const column = COLUMNS[c]!;
        const value = column.value(listed, context);
        packer.cell(KIND_CODES[column.kind], value);
        widths.measure(c, column.kind, value);
      }
      packer.endRow();
    }
    toWrite.push({
      rel,
      key,
      spec: { ...head, widths: widths.widths(), rows: new PackedSheetRows(packer.packed()) },
    });
  }
  if (toWrite.length === 0) return;

  // Streamed to a temporary file, not to memory, so that a large export costs disk, not RAM.
  const dir = await mkdtemp(path.join(tmpdir(), "catalogue-export-")).catch((error: unknown) => {
    throw temporaryFailure(error);
  });
  try {
    // One at a time: a sheet being written holds a chunk of its XML.
    for (const { rel, key, spec } of toWrite) {
      const file = path.join(dir, path.basename(rel));
      await sheets(file, spec).catch((error: unknown) => {
        throw temporaryFailure(error);
      });
      await tree.moveFrom(rel, file, key);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What a sheet's rows are made of, without making them: each row's work as its inputs digest, in
 * order (from domainInputs: the work, its director and window, the domain's language) and the
 * domain's address (in the url column). The code that makes the cells and widths from them is in
 * the sheet's key (`sheetKey`: EXPORTS_CODE's version). Digesting the rows' values instead (a JSON
 * text of every cell) would make every row of every sheet, on every build, only to key it.
 */
export function rowsKey(
  domain: Domain,
  works: readonly ListedWork[],
  workDigests: ReadonlyMap<ListedWork, string>,
): string {
  let digests = "";
  for (const listed of works) digests += inputsDigest(workDigests, listed);
  return md5(`${domain.base_url}\n${works.length}\n${digests}`);
}

/** Writes one spreadsheet file: `writeSheet` here, or the same in a writer thread (src/pipeline/stages.ts, sheetJob). */
export type SheetWriter = (file: string, spec: SheetSpec) => Promise<unknown>;

/** Codes of a temporary folder that is full or not writable: the operator's to fix, not a bug. */
const TEMPORARY_FAILURES = new Set([
  "ENOSPC",
  "EDQUOT",
  "EFBIG",
  "EACCES",
  "EPERM",
  "EROFS",
  "ENOTDIR",
  "ENOENT",
  "EIO",
]);

export function temporaryFailure(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === undefined || !TEMPORARY_FAILURES.has(code)) return error;
  return new UserError(
    `cannot write a temporary export file in ${tmpdir()}: ${(error as Error).message}; free some space there or set TMPDIR to a writable folder with room`,
    { cause: error },
  );
}

/** The dates that bound each kind, for the document properties (docs/interface.md#windows, as days). */
function exportFacts(view: DomainView): ExportFacts {
  const today = dayNumber(view.date);
  const days = view.domain.export_window_days;
  return {
    domain: view.domain.domain,
    name: view.domain.name,
    date: view.date,
    windowDays: days,
    // ups: T - N < available_from <= T
    upsFrom: dateOfDay(today - days + 1),
    upsTo: view.date,
    // downs: T - N <= available_until < T
    downsFrom: dateOfDay(today - days),
    downsTo: dateOfDay(today - 1),
  };
}
