import type { PublishedEntry, SourceFile } from "../targets/target.ts";

/**
 * A target's record of what one domain published: `_catalogue/records/<domain>.tsv`, each file
 * of the domain (its folder and the media it uses) with size, MD5, the key it was built with and
 * the headers it was stored with. A publish trusts a complete record instead of listing the
 * bucket, so it must never claim an object the target lacks:
 *
 * - before the first upload or delete, the record is rewritten as `updating`: files about to be
 *   replaced or deleted are `pending` (their path is known, their state is not);
 * - after the last one, it is rewritten `complete`.
 *
 * A run killed in between leaves `updating`, and the next publish lists that domain's folders
 * instead of trusting it. Tab-separated lines, like the build's files.tsv: a large domain's
 * record reads quickly.
 */

export const RECORDS_FOLDER = "_catalogue/records/";

export const recordPath = (domain: string) => `${RECORDS_FOLDER}${domain}.tsv`;

export interface DomainRecord {
  domain: string;
  state: "complete" | "updating";
  /** The build date of what was published. */
  date: string;
  /**
   * The domain's inputs key in the build published (`_catalogue/inputs.json`): a complete record
   * with the key of the build at hand proves there is nothing to publish (publish/unchanged.ts).
   */
  inputs?: string;
  /** Files the target holds as recorded. */
  files: Map<string, PublishedEntry>;
  /** Paths whose state is unknown (being replaced or deleted when the record was written). */
  pending: Set<string>;
}

const MAGIC = "#catalogue-record 1";
const COLUMNS = "path\tsize\tmd5\tkey\tcontentType\tcacheControl\tcontentDisposition\tmtimeMs";

/** What the first line of a record says: enough to know that nothing changed, without the rest. */
export interface RecordHead {
  domain: string;
  state: DomainRecord["state"];
  date: string;
  inputs?: string;
  /** Files the record lists as held. */
  files?: number;
}

/** Bytes of a record that surely hold its first line (a range read of a record starts with them). */
export const RECORD_HEAD_BYTES = 1024;

export function encodeRecord(record: DomainRecord): Buffer {
  const lines = [headLine(record, record.files.size), COLUMNS];
  const paths = [...new Set([...record.files.keys(), ...record.pending])].sort();
  for (const rel of paths) {
    const e = record.files.get(rel);
    lines.push(e === undefined || record.pending.has(rel) ? pendingLine(rel) : recordLine(rel, e));
  }
  return Buffer.from(lines.join("\n") + "\n");
}

/** A record's first line: its head, with the number of files it lists as held. */
function headLine(record: Omit<RecordHead, "files">, files: number): string {
  const fields: RecordHead = { domain: record.domain, state: record.state, date: record.date };
  if (record.inputs !== undefined) Object.assign(fields, { inputs: record.inputs, files });
  return `${MAGIC} ${JSON.stringify(fields)}`;
}

/** The line of a file the target holds as `e` says. */
const recordLine = (rel: string, e: PublishedEntry) =>
  `${rel}\t${e.size}\t${e.md5}\t${e.key ?? ""}\t${e.contentType}\t${e.cacheControl}\t${e.contentDisposition ?? ""}\t${e.mtimeMs ?? ""}`;

/** The line of a pending path: known, its state not. */
const pendingLine = (rel: string) => `${rel}\t\t\t\t\t\t\t`;

/**
 * A record as stored, kept as its text with where each line starts: a publish that changes a few
 * files of a 24,000-file domain rewrites their lines (patchRecord) and copies the rest in a few
 * runs, instead of decoding every entry and encoding it again.
 */
export interface RecordLines {
  head: RecordHead;
  text: string;
  /** The sorted paths. */
  paths: string[];
  /** Where each path's line starts in `text`, and (one more) where the line after the last would. */
  starts: number[];
  /** How many lines are of held files (not pending). */
  held: number;
  /** The stored bytes when each character of `text` is one byte of them (ASCII): runs are then copied as bytes. */
  bytes: Buffer | null;
}

/** Null when the bytes are not a record of ours (or have an empty line, which encodeRecord never writes). */
export function recordLines(stored: Buffer): RecordLines | null {
  let text = stored.toString();
  const bytes = text.length === stored.length && text.endsWith("\n") ? stored : null;
  if (!text.endsWith("\n")) text += "\n";
  const first = text.indexOf("\n");
  const head = parseHead(text.slice(0, first));
  if (head === null || !text.startsWith(`${COLUMNS}\n`, first + 1)) return null;
  const paths: string[] = [];
  const starts: number[] = [];
  let held = 0;
  for (let start = first + COLUMNS.length + 2; start < text.length;) {
    const end = text.indexOf("\n", start);
    const tab = text.indexOf("\t", start);
    if (tab <= start || tab > end) return null;
    paths.push(text.slice(start, tab));
    starts.push(start);
    if (text.charCodeAt(tab + 1) !== 9) held++;
    start = end + 1;
  }
  starts.push(text.length);
  return { head, text, paths, starts, held, bytes };
}

/** The stored line of the i-th path, without its line break. */
export const lineAt = (record: RecordLines, i: number) =>
  record.text.slice(record.starts[i], record.starts[i + 1]! - 1);

/** Whether the i-th path of a stored record is pending (no size after the path). */
export const isPendingAt = (record: RecordLines, i: number) =>
  record.text.charCodeAt(record.starts[i]! + record.paths[i]!.length + 1) === 9;

/**
 * The record that `stored` becomes with `changes` (sorted by path): a path mapped to an entry is
 * held as it says, to "pending" is pending, to null is no longer there. Byte for byte what
 * encodeRecord writes for the same record.
 */
export function patchRecord(
  stored: RecordLines,
  head: Omit<RecordHead, "files">,
  changes: readonly (readonly [string, PublishedEntry | "pending" | null])[],
): Buffer {
  const { paths, starts, text, bytes } = stored;
  // Its first line, which counts the files, is set last; unchanged lines are copied in runs (as
  // bytes when they can be: encoding a large record's text again costs more than the rest).
  const pieces: (string | Buffer)[] = ["", `${COLUMNS}\n`];
  const run = (from: number, to: number) =>
    pieces.push(
      bytes === null
        ? text.slice(starts[from], starts[to])
        : bytes.subarray(starts[from], starts[to]),
    );
  let files = stored.held;
  let i = 0;
  for (const [rel, change] of changes) {
    const from = i;
    while (i < paths.length && paths[i]! < rel) i++;
    if (i > from) run(from, i);
    if (i < paths.length && paths[i] === rel) {
      if (!isPendingAt(stored, i)) files--;
      i++;
    }
    if (change === "pending") pieces.push(`${pendingLine(rel)}\n`);
    else if (change !== null) {
      pieces.push(`${recordLine(rel, change)}\n`);
      files++;
    }
  }
  if (i < paths.length) run(i, paths.length);
  pieces[0] = `${headLine(head, files)}\n`;
  return Buffer.concat(pieces.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
}

/** Null when the bytes are not a record of ours: that domain is then listed, as if unrecorded. */
export function decodeRecord(bytes: Buffer | string): DomainRecord | null {
  const lines = bytes.toString().split("\n");
  const head = parseHead(lines[0]!);
  if (head === null || lines[1] !== COLUMNS) return null;
  const record: DomainRecord = {
    domain: head.domain,
    state: head.state,
    date: head.date,
    files: new Map(),
    pending: new Set(),
  };
  if (head.inputs !== undefined) record.inputs = head.inputs;
  for (let i = 2; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") continue;
    const parsed = parseLine(line);
    if (parsed === null) return null;
    const { rel, entry } = parsed;
    if (entry === null) {
      record.pending.add(rel);
      continue;
    }
    record.files.set(rel, entry);
  }
  return record;
}

/** A stored line's path and entry (null: a pending path); null when it is not a line of a record. */
export function parseLine(line: string): { rel: string; entry: PublishedEntry | null } | null {
  const cells = line.split("\t");
  if (cells.length !== 8) return null;
  const [rel, size, md5, key, contentType, cacheControl, disposition, mtime] = cells as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (md5 === "") return { rel, entry: null };
  const entry: PublishedEntry = { size: Number(size), md5, contentType, cacheControl };
  if (key !== "") entry.key = key;
  if (disposition !== "") entry.contentDisposition = disposition;
  if (mtime !== "") entry.mtimeMs = Number(mtime);
  return Number.isFinite(entry.size) ? { rel, entry } : null;
}

/** The first line of a record (the whole record, or its first RECORD_HEAD_BYTES); null when it is not one of ours. */
export function decodeRecordHead(bytes: Buffer | string): RecordHead | null {
  const text = bytes.toString();
  const end = text.indexOf("\n");
  return end < 0 ? null : parseHead(text.slice(0, end));
}

function parseHead(line: string): RecordHead | null {
  if (!line.startsWith(`${MAGIC} `)) return null;
  let head: Partial<Record<keyof RecordHead, unknown>>;
  try {
    head = JSON.parse(line.slice(MAGIC.length + 1)) as typeof head;
  } catch {
    return null;
  }
  const { domain, state, date, inputs, files } = head;
  if (
    typeof domain !== "string" ||
    (state !== "complete" && state !== "updating") ||
    typeof date !== "string"
  )
    return null;
  return {
    domain,
    state,
    date,
    ...(typeof inputs === "string" ? { inputs } : {}),
    ...(typeof files === "number" ? { files } : {}),
  };
}

/** What a record says of a file the target holds. */
export function entryOf(file: SourceFile, mtimeMs?: number): PublishedEntry {
  return {
    size: file.size,
    md5: file.md5,
    ...(file.key !== undefined ? { key: file.key } : {}),
    contentType: file.contentType,
    cacheControl: file.cacheControl,
    ...(file.contentDisposition ? { contentDisposition: file.contentDisposition } : {}),
    ...(mtimeMs !== undefined ? { mtimeMs } : {}),
  };
}
