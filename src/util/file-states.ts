import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * What was learnt from reading files (an image's content digest, its header), remembered in a
 * JSON file by path and file state (size, mtime, inode...: the test make, rsync and git use):
 * a build does not read tens of thousands of unchanged covers again, only the ones that changed.
 * A missing or damaged file only costs reading the sources again.
 */
export class FileStates<T> {
  private changed = false;

  private constructor(
    private readonly file: string,
    /** Path → [the state it was read in, what was learnt]. */
    private readonly known: Map<string, [string, T]>,
  ) {}

  static async open<T>(file: string): Promise<FileStates<T>> {
    const known = await readFile(file, "utf8")
      .then((text) => new Map(Object.entries(JSON.parse(text) as Record<string, [string, T]>)))
      .catch(() => new Map<string, [string, T]>());
    return new FileStates(file, known);
  }

  /** What was learnt of `abs` in this state; undefined if it was read in another (or never). */
  get(abs: string, state: string): T | undefined {
    const entry = this.known.get(abs);
    return Array.isArray(entry) && entry[0] === state ? entry[1] : undefined;
  }

  set(abs: string, state: string, value: T): void {
    this.known.set(abs, [state, value]);
    this.changed = true;
  }

  /** Writes the file (atomically) if anything was learnt since it was read. */
  async save(): Promise<void> {
    if (!this.changed) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    // Sorted, so the file is the same whatever order the sources were read in.
    await atomicWrite(
      this.file,
      JSON.stringify(Object.fromEntries([...this.known].sort(([a], [b]) => (a < b ? -1 : 1)))),
    );
    this.changed = false;
  }
}

/** Writes a file under a temporary name, then renames it: a killed process never leaves half a file. */
export async function atomicWrite(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}
