import type { ThreadJob } from "../output/writer-pool.ts";
import { PackedSheetRows, packedBuffers, packRows, type PackedRows } from "./rows.ts";
import { writeSheet, type SheetHead, type SheetSpec } from "./xlsx.ts";

/**
 * Spreadsheets written in the output's writer threads (CPU work the main thread would otherwise
 * do between domains). The threads know nothing of spreadsheets: they run the job this module
 * makes, which calls writeSheetJob here, in the thread.
 */

interface SheetJobInput {
  file: string;
  head: SheetHead;
  rows: PackedRows;
}

/** The job that writes the spreadsheet `spec` into `file`: its rows cross packed, their buffers moved, not copied. */
export function sheetJob(file: string, spec: SheetSpec): ThreadJob {
  const { rows, ...head } = spec;
  const packed = rows instanceof PackedSheetRows ? rows.packed : packRows(rows, spec.rowCount);
  const input: SheetJobInput = { file, head, rows: packed };
  return {
    module: new URL(import.meta.url),
    name: writeSheetJob.name,
    input,
    transfer: packedBuffers(packed),
  };
}

/** The thread's side of sheetJob. */
export async function writeSheetJob({ file, head, rows }: SheetJobInput): Promise<void> {
  await writeSheet(file, { ...head, rows: new PackedSheetRows(rows) });
}
