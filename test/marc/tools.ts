import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { writeMarcFiles } from "../../src/marc/record-files.ts";
import type { MarcRecord } from "../../src/marc/record.ts";

/**
 * The library world's own MARC tools, run on files the tests write: YAZ's yaz-marcdump, and Perl's
 * MARC::Record, MARC::File::XML and MARC::Lint (through read-marc.pl). The test files ask for
 * them with requireTool (Debian's yaz, libmarc-record-perl, libmarc-xml-perl, libmarc-lint-perl).
 */

const run = promisify(execFile);
const MAX_BUFFER = 256 * 1024 * 1024;

/** A temporary folder with `records` written in both formats (in one pass, as the build will), and its cleanup. */
export async function writeBoth(
  records: readonly MarcRecord[],
): Promise<{ mrc: string; xml: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "catalogue-marc-"));
  const mrc = path.join(dir, "records.mrc");
  const xml = path.join(dir, "records.xml");
  const iso: Uint8Array[] = [];
  const marcxml: Uint8Array[] = [];
  writeMarcFiles(records, {
    iso2709: (chunk) => iso.push(chunk),
    marcxml: (chunk) => marcxml.push(chunk),
  });
  await writeFile(mrc, iso);
  await writeFile(xml, marcxml);
  return { mrc, xml, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** yaz-marcdump's reading of a file: `line` (its text dump) or `marc` (the records it writes again, as bytes). */
export async function yaz(
  file: string,
  input: "marc" | "marcxml",
  output: "line" | "marc",
): Promise<{ text: string; bytes: Buffer; stderr: string }> {
  const { stdout, stderr } = await run("yaz-marcdump", ["-i", input, "-o", output, file], {
    encoding: "buffer",
    maxBuffer: MAX_BUFFER,
  });
  return { text: stdout.toString("utf8"), bytes: stdout, stderr: stderr.toString("utf8") };
}

export interface PerlReading {
  records: string[];
  rewritten: string[];
  xml: string[];
  decoding: Record<string, string[]>;
  lint: Record<string, string[]>;
  fields?: (string | string[])[][][];
}

/** What Perl's MARC modules read in the two files (read-marc.pl says what each part is). */
export async function perl(mrc: string, xml: string, withFields = false): Promise<PerlReading> {
  const script = path.join(import.meta.dirname, "read-marc.pl");
  const { stdout } = await run("perl", [script, mrc, xml, ...(withFields ? ["--fields"] : [])], {
    maxBuffer: MAX_BUFFER,
  });
  return JSON.parse(stdout) as PerlReading;
}
