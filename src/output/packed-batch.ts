/**
 * A batch's file list and its result in the forms they cross between the main thread and a
 * writer thread (src/output/writer-thread.ts): a string and an array of numbers, copied in two
 * memcpy-like steps. Posted as objects, tens of thousands of small objects per build would cost the
 * main thread their structured cloning (docs/performance.md#both-cores). Each form is written and
 * read here only.
 */

/** Size and identity (key of a keyed file, else MD5) of another version's file at a path. */
export interface Identity {
  size: number;
  id: string;
}

/** A file of the new version: `fresh` when this build wrote its bytes, else kept from the previous one. */
export interface StagedEntry {
  size: number;
  /** Absent for keyed files (their key stands for their bytes; see FileEntry). */
  md5?: string;
  /** For files written with a key: the digest of what their bytes are made from. */
  key?: string;
  fresh: boolean;
}

export interface BatchResult {
  entries: [string, StagedEntry][];
  bytesWritten: number;
}

/** A batch's file list as it crosses to a writer thread. */
export interface PackedFiles {
  /** Per file: rel, key, previous identity and staging identity (empty when absent), each ending with a NUL (no path holds one). */
  text: string;
  /** Per file: size, previous size, staging size (-1 when absent), segment count, then the segments. */
  numbers: Float64Array;
}

/** Text fields per file in PackedFiles.text. */
const FIELDS = 4;
/** Numbers per file in PackedFiles.numbers before its segments. */
const HEADER = 4;

/**
 * A batch's files, packed as they are added (PackedFiles): a file is begun, given its segments
 * (offset and size in the batch's buffer; adjacent pieces make one segment) and ended with its
 * size. Built straight into the packed form: an object and a segment array per file, packed again
 * when the batch left, were a large part of the main thread's bookkeeping per file.
 */
export class BatchFiles {
  private text = "";
  private numbers = new Float64Array(1024);
  private used = 0;
  /** Where the open file's numbers start. */
  private open = -1;
  private openRel = "";
  private openKeyed = false;
  count = 0;
  /** The files without a key, in order: their entries come back from the writer (unpackResult). */
  readonly unkeyed: { rel: string; size: number }[] = [];

  begin(
    rel: string,
    key: string | undefined,
    previous: Identity | undefined,
    inStaging: Identity | undefined,
  ): void {
    this.text += `${rel}\0${key ?? ""}\0${previous?.id ?? ""}\0${inStaging?.id ?? ""}\0`;
    this.room(HEADER);
    this.open = this.used;
    this.openRel = rel;
    this.openKeyed = key !== undefined;
    const { numbers } = this;
    numbers[this.used + 1] = previous?.size ?? -1;
    numbers[this.used + 2] = inStaging?.size ?? -1;
    numbers[this.used + 3] = 0;
    this.used += HEADER;
  }

  segment(offset: number, size: number): void {
    const { numbers } = this;
    const last = this.used - 2;
    if (numbers[this.open + 3]! > 0 && numbers[last]! + numbers[last + 1]! === offset) {
      numbers[last + 1]! += size;
      return;
    }
    this.room(2);
    this.numbers[this.used++] = offset;
    this.numbers[this.used++] = size;
    this.numbers[this.open + 3]! += 2;
  }

  end(size: number): void {
    this.numbers[this.open] = size;
    if (!this.openKeyed) this.unkeyed.push({ rel: this.openRel, size });
    this.count++;
  }

  packed(): PackedFiles {
    return { text: this.text, numbers: this.numbers.slice(0, this.used) };
  }

  private room(more: number): void {
    if (this.used + more <= this.numbers.length) return;
    const grown = new Float64Array(Math.max(this.numbers.length * 2, this.used + more));
    grown.set(this.numbers.subarray(0, this.used));
    this.numbers = grown;
  }
}

/**
 * A file of a packed batch as the reader hands it over. One object for every file of a batch,
 * refilled (an object per file cost more than its fields): copy what you keep.
 */
export interface PackedFile {
  rel: string;
  /** The key of a keyed file, else "". */
  key: string;
  size: number;
  /** The previous version's file at `rel`: its size (-1: there is none) and identity. */
  previousSize: number;
  previousId: string;
  /** The recycled version's file at `rel`, in the staging folder: its size (-1: there is none) and identity. */
  stagingSize: number;
  stagingId: string;
  /** The file's bytes, in pieces, as views of the batch's buffer `bytes`. */
  views: Uint8Array[];
}

/** Reads a packed batch (BatchFiles) whose files' bytes are in `bytes`, calling `visit` with each file in order. */
export function forEachPackedFile(
  { text, numbers }: PackedFiles,
  bytes: Uint8Array,
  visit: (file: PackedFile) => void,
): void {
  const fields = text.split("\0");
  const file: PackedFile = {
    rel: "",
    key: "",
    size: 0,
    previousSize: -1,
    previousId: "",
    stagingSize: -1,
    stagingId: "",
    views: [],
  };
  for (let f = 0, at = 0; at < numbers.length; f += FIELDS) {
    file.rel = fields[f]!;
    file.key = fields[f + 1]!;
    file.previousId = fields[f + 2]!;
    file.stagingId = fields[f + 3]!;
    file.size = numbers[at]!;
    file.previousSize = numbers[at + 1]!;
    file.stagingSize = numbers[at + 2]!;
    const end = at + HEADER + numbers[at + 3]!;
    const views: Uint8Array[] = [];
    for (at += HEADER; at < end; at += 2)
      views.push(bytes.subarray(numbers[at], numbers[at]! + numbers[at + 1]!));
    file.views = views;
    visit(file);
  }
}

/** A batch's result as it comes back: the MD5s of the files without a key, in order (32 characters each), and which of them are fresh. */
export interface PackedResult {
  md5s: string;
  fresh: Uint8Array;
  bytesWritten: number;
}

/** Packs a batch's result in the writer thread: each file without a key, in the batch's order. */
export class ResultPacker {
  private md5s = "";
  private readonly fresh: number[] = [];
  bytesWritten = 0;

  /** The next file without a key: its MD5 (32 hex characters) and whether its bytes are new. */
  add(md5: string, fresh: boolean): void {
    if (md5.length !== 32) throw new Error(`bug: ${JSON.stringify(md5)} is not an MD5`);
    this.md5s += md5;
    this.fresh.push(fresh ? 1 : 0);
  }

  packed(): PackedResult {
    return { md5s: this.md5s, fresh: Uint8Array.from(this.fresh), bytesWritten: this.bytesWritten };
  }
}

/**
 * The entries of the batch's files without a key (`unkeyed`, from BatchFiles), from its packed
 * result (the main thread recorded the keyed files' entries when it handed them over:
 * src/output/staging.ts).
 */
export function unpackResult(
  unkeyed: readonly { rel: string; size: number }[],
  { md5s, fresh, bytesWritten }: PackedResult,
): BatchResult {
  const entries: [string, StagedEntry][] = unkeyed.map(({ rel, size }, i) => [
    rel,
    { size, md5: md5s.slice(i * 32, (i + 1) * 32), fresh: fresh[i] === 1 },
  ]);
  return { entries, bytesWritten };
}
