import { appendFile } from "node:fs/promises";

/** One line of `npm run bench`'s table. */
export interface BenchRow {
  measure: string;
  ours: string;
  peer?: string;
  ratio?: string;
  target?: string;
}

/**
 * The benchmark scripts print their own figures; run by `npm run bench` (scripts/bench.ts sets
 * BENCH_ROWS_FILE) they also hand their rows to its table, one JSON line each.
 */
export async function reportRows(rows: BenchRow[]): Promise<void> {
  const file = process.env.BENCH_ROWS_FILE;
  if (file !== undefined)
    await appendFile(file, rows.map((row) => JSON.stringify(row) + "\n").join(""));
}
