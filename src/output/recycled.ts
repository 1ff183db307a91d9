import { rmdirSync, rmSync, unlinkSync } from "node:fs";
import path from "node:path";
import { removeStale } from "./batch.ts";
import { hasFields, unpackFields } from "./entries.ts";
import { sameBytes, type FileEntry } from "./sink.ts";

/**
 * The older version that a build recycles as its staging folder (see OutputTree.open), instead of
 * deleting it and linking every unchanged file again. Its files are never written into (they may
 * be hard links to the current version's): one that already holds the new bytes stays, one with
 * other bytes is removed and written anew, and those the new version lacks are removed at the
 * end, with the folders this empties. A build with nothing recycled has an empty one.
 */
export class RecycledVersion {
  /** The folders of the recycled files (made on first use). */
  private dirs: Set<string> | null = null;
  /** Folders of new files, each checked by clearWay (a recycled file at one of them was removed). */
  private readonly clearFolders = new Set<string>();

  constructor(
    private readonly staging: string,
    /** The recycled files, as the older version's manifest records them. */
    readonly files: ReadonlyMap<string, FileEntry> = new Map(),
  ) {}

  get size(): number {
    return this.files.size;
  }

  has(rel: string): boolean {
    return this.files.has(rel);
  }

  /** Whether the recycled file at `rel` already holds the bytes of `entry`. */
  holds(rel: string, entry: FileEntry | undefined): boolean {
    const held = this.files.get(rel);
    return held !== undefined && entry !== undefined && sameBytes(held, entry);
  }

  /** `holds` for an entry's packed fields: equal fields mean the same bytes, without unpacking either. */
  holdsFields(rel: string, fields: string): boolean {
    if (!hasFields(this.files))
      return this.files.size > 0 && this.holds(rel, unpackFields(fields, 0));
    const held = this.files.fields(rel);
    return (
      held !== undefined &&
      (held === fields || sameBytes(unpackFields(held, 0), unpackFields(fields, 0)))
    );
  }

  /**
   * Removes what stands where `rel` goes: a folder at its path, or a file at the path of one of
   * its folders. Done before any thread writes under that path.
   */
  clearWay(rel: string): void {
    // A file there in the recycled version: its folders are folders, nothing is in the way (most
    // paths of a rebuild, each checked here in one lookup).
    if (this.files.size === 0 || this.files.has(rel)) return;
    if (this.dirs === null) {
      this.dirs = new Set();
      for (const held of this.files.keys()) {
        // Each file's folders up to the first one already known (string slicing: path.dirname costs more).
        for (
          let slash = held.lastIndexOf("/");
          slash > 0;
          slash = held.lastIndexOf("/", slash - 1)
        ) {
          const dir = held.slice(0, slash);
          if (this.dirs.has(dir)) break;
          this.dirs.add(dir);
        }
      }
    }
    if (this.dirs.has(rel)) rmSync(path.join(this.staging, rel), { recursive: true, force: true });
    // Each folder is checked once, walking up to the first one already checked.
    for (
      let folder = rel.slice(0, Math.max(0, rel.lastIndexOf("/")));
      folder !== "" && !this.clearFolders.has(folder);
    ) {
      if (this.files.has(folder)) removeStale(path.join(this.staging, folder));
      this.clearFolders.add(folder);
      folder = folder.slice(0, Math.max(0, folder.lastIndexOf("/")));
    }
  }

  /**
   * Removes the recycled files that the new version does not have (`kept` is false for them),
   * then the folders this leaves empty. Called once every file is in.
   */
  removeLeftovers(kept: (rel: string) => boolean): void {
    const emptied = new Set<string>();
    for (const rel of this.files.keys()) {
      // A recycled file where a new folder goes was removed by clearWay.
      if (kept(rel) || this.clearFolders.has(rel)) continue;
      try {
        unlinkSync(path.join(this.staging, rel));
      } catch (error) {
        // Gone with its folder, which was in the way of a new file.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      }
      emptied.add(path.dirname(rel));
    }
    // Deepest first, so that a folder is tried after its subfolders.
    const folders = [...emptied].sort((a, b) => b.split("/").length - a.split("/").length);
    for (let i = 0; i < folders.length; i++) {
      const folder = folders[i]!;
      if (folder === ".") continue;
      try {
        rmdirSync(path.join(this.staging, folder));
      } catch {
        continue; // not empty (or already gone)
      }
      const parent = path.dirname(folder);
      if (!emptied.has(parent)) {
        emptied.add(parent);
        folders.push(parent);
      }
    }
  }
}
