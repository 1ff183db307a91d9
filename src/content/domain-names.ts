import { realpath } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { readCsv } from "./csv.ts";

/**
 * `--domain HOST` checked against domains.csv alone, before the rest of the content is read: a
 * misspelt host is then the first and only thing said, not the last line after every warning of
 * the content. Only the `domain` column is read, without the schemas (a build with nothing to do
 * stays light); a file that cannot be read is left to the full check, which says why.
 */
export async function checkDomainFlag(
  contentDir: string,
  names: readonly string[] | undefined,
): Promise<void> {
  if (names === undefined || names.length === 0) return;
  const known = await domainNames(contentDir);
  if (known === null) return;
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new UserError(
      `--domain: unknown domain ${unknown.join(", ")}; the domains are: ${known.join(", ")}`,
    );
  }
}

/** The `domain` cells of domains.csv as written, or null when the file cannot be read. */
async function domainNames(contentDir: string): Promise<string[] | null> {
  const root = await realpath(contentDir).catch(() => null);
  if (root === null) return null;
  // The file's name as src/content/csv-files.ts has it (which would load the schemas).
  const name = "domains.csv";
  const table = await readCsv(root, name, path.join(contentDir, name), {
    required: ["domain"],
    optional: [],
  });
  if (table.problems.length > 0) return null;
  return table.rows.flatMap((row) => row.cells.domain ?? []);
}
