import type { PublishedEntry } from "./target.ts";

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
 * instead of trusting it. Tab-separated lines, like the build's files.tsv: a 13,000-file domain
 * reads in milliseconds.
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
  const fields: RecordHead = { domain: record.domain, state: record.state, date: record.date };
  if (record.inputs !== undefined) Object.assign(fields, { inputs: record.inputs, files: record.files.size });
  const head = JSON.stringify(fields);
  const lines = [`${MAGIC} ${head}`, COLUMNS];
  const paths = [...new Set([...record.files.keys(), ...record.pending])].sort();
  for (const rel of paths) {
    const e = record.files.get(rel);
    if (e === undefined || record.pending.has(rel)) lines.push(`${rel}\t\t\t\t\t\t\t`);
    else lines.push(`${rel}\t${e.size}\t${e.md5}\t${e.key ?? ""}\t${e.contentType}\t${e.cacheControl}\t${e.contentDisposition ?? ""}\t${e.mtimeMs ?? ""}`);
  }
  return Buffer.from(lines.join("\n") + "\n");
}

/** Null when the bytes are not a record of ours: that domain is then listed, as if unrecorded. */
export function decodeRecord(bytes: Buffer | string): DomainRecord | null {
  const lines = bytes.toString().split("\n");
  const head = parseHead(lines[0]!);
  if (head === null || lines[1] !== COLUMNS) return null;
  const record: DomainRecord = { domain: head.domain, state: head.state, date: head.date, files: new Map(), pending: new Set() };
  if (head.inputs !== undefined) record.inputs = head.inputs;
  for (let i = 2; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") continue;
    const cells = line.split("\t");
    if (cells.length !== 8) return null;
    const [rel, size, md5, key, contentType, cacheControl, disposition, mtime] = cells as [string, string, string, string, string, string, string, string];
    if (md5 === "") {
      record.pending.add(rel);
      continue;
    }
    const entry: PublishedEntry = { size: Number(size), md5, contentType, cacheControl };
    if (key !== "") entry.key = key;
    if (disposition !== "") entry.contentDisposition = disposition;
    if (mtime !== "") entry.mtimeMs = Number(mtime);
    if (!Number.isFinite(entry.size)) return null;
    record.files.set(rel, entry);
  }
  return record;
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
    head = JSON.parse(line.slice(MAGIC.length + 1));
  } catch {
    return null;
  }
  const { domain, state, date, inputs, files } = head;
  if (typeof domain !== "string" || (state !== "complete" && state !== "updating") || typeof date !== "string") return null;
  return { domain, state, date, ...(typeof inputs === "string" ? { inputs } : {}), ...(typeof files === "number" ? { files } : {}) };
}
