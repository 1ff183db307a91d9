import { createHash } from "node:crypto";
import {
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { programDigest } from "../program.ts";
import { countLines } from "../output/manifest.ts";

/**
 * A digest of everything a build's output depends on: the content folder (CSV bytes; other files
 * by path, size and mtime), the program itself (its sources and locked dependency versions) and
 * the build options. Equal fingerprints mean equal outputs, so a rebuild with nothing changed
 * skips all the work (docs/interface.md#output: files whose bytes did not change are not rewritten).
 *
 * The CSVs' bytes count through their SHA-256, which `digests` (a file kept beside the output's
 * versions, see ContentDigests) remembers with each file's stat signature: a CSV whose signature
 * is the recorded one is not read again.
 *
 * Read synchronously: a build with nothing to do is this and little else, and each asynchronous
 * read is several round trips through libuv's thread pool, slow on a busy machine.
 */
export async function inputFingerprint(
  contentDir: string,
  options: Record<string, unknown>,
  digests: string | null = null,
): Promise<string> {
  return (await contentFingerprint(contentDir, options, digests)).fingerprint;
}

/** The fingerprint, and the lines of each CSV read or recorded (by path in the content folder; a link's are not counted). */
export async function contentFingerprint(
  contentDir: string,
  options: Record<string, unknown>,
  digests: string | null = null,
): Promise<{ fingerprint: string; lines: Map<string, number> }> {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(options));
  const known = digests === null ? null : ContentDigests.read(digests);
  const lines = new Map<string, number>();
  for (const file of listFiles(contentDir)) {
    const full = path.join(contentDir, file);
    const csv = file.endsWith(".csv");
    const target = csv ? statSync(full, { throwIfNoEntry: false }) : undefined;
    if (csv && target?.isFile() !== true) {
      // Never read what is not a regular file: a link may name a device that never ends
      // (/dev/zero) or nothing, which the load reports without reading; the link stands in.
      hash.update(`${file}\0->${readlinkSync(full)}\0${target?.mode}\0${target?.ino}\0`);
    } else if (csv) {
      const read = known?.digest(full) ?? csvDigest(readFileSync(full));
      lines.set(file, read.lines);
      hash.update(`${file}\0${read.sha256}\0`);
    } else {
      const info = statSync(full);
      hash.update(`${file}\0${info.size}\0${info.mtimeMs}\0${info.ino}\0`);
    }
  }
  if (digests !== null) known!.save(digests);
  hash.update(await programDigest());
  return { fingerprint: hash.digest("hex"), lines };
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A CSV's digest and its lines (a line break in a quoted cell counts as one). */
const csvDigest = (bytes: Buffer) => ({ sha256: sha256(bytes), lines: countLines(bytes) });

/**
 * Racy files (git's word): a file modified less than this before it was read may be modified
 * again within the same timestamp on a file system with coarse ones (FAT: 2 s), keeping its
 * signature. Its digest is not recorded; it is read again until it is older than that.
 */
const RACY_MS = 2000;

/**
 * The SHA-256 of each CSV, keyed by its stat signature, as git's index keeps its files': size,
 * mtime, ctime, inode and device, to the nanosecond. The rule is git's: a file whose signature is
 * the recorded one is taken as unchanged without being read; any difference (a touch, an edit, a
 * copy, a checkout) reads it again, and identical bytes still give the same fingerprint. An edit
 * that keeps the size and sets the mtime back changes the ctime, which only the kernel sets, so
 * it is read again too; only a clock or a file system that lies about them would defeat it.
 *
 * A cache, never a source of truth: unreadable, missing or stale, it only means reading the
 * files. Kept out of the output (signatures are of this machine, and outputs are deterministic).
 */
class ContentDigests {
  private constructor(
    private readonly recorded: Map<string, Entry>,
    private readonly current = new Map<string, Entry>(),
    private added = false,
  ) {}

  static read(file: string): ContentDigests {
    try {
      const { files } = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, Entry> };
      return new ContentDigests(new Map(Object.entries(files)));
    } catch {
      return new ContentDigests(new Map());
    }
  }

  /**
   * The file's SHA-256 and lines: the recorded ones when its signature is unchanged, else read
   * (an entry recorded without its lines is read again once).
   */
  digest(full: string): { sha256: string; lines: number } {
    const key = path.resolve(full);
    const now = Date.now(); // before the stat: the file is read later still
    const info = statSync(full, { bigint: true });
    const signature = [info.size, info.mtimeNs, info.ctimeNs, info.ino, info.dev].join(":");
    const known = this.recorded.get(key);
    if (known?.signature === signature && known.lines !== undefined) {
      this.current.set(key, known);
      return { sha256: known.sha256, lines: known.lines };
    }
    const digest = csvDigest(readFileSync(full));
    const newest = Number((info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs) / 1_000_000n);
    if (now - newest >= RACY_MS) {
      this.current.set(key, { signature, ...digest });
      this.added = true;
    }
    return digest;
  }

  /** Records the digests of this fingerprint's files (only theirs) when they differ from the recorded ones, if `file`'s folder exists. */
  save(file: string): void {
    if (!this.added && this.current.size === this.recorded.size) return;
    if (!existsSync(path.dirname(file))) return; // no output yet: its first build makes the folder
    const partial = `${file}.${process.pid}.part`;
    try {
      writeFileSync(partial, JSON.stringify({ files: Object.fromEntries(this.current) }) + "\n");
      renameSync(partial, file);
    } catch {
      rmSync(partial, { force: true }); // only a cache: the next build reads the files again
    }
  }
}

interface Entry {
  signature: string;
  sha256: string;
  /** Absent in records of older versions. */
  lines?: number;
}

function listFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}
