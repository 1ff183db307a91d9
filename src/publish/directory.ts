import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { hashFile } from "../output/tree.ts";
import { mapLimit } from "../util/concurrency.ts";
import { decodeManifest, encodeManifest, type StoredEntry } from "./manifest.ts";
import { PUBLISHED_PATH, type Published, type SourceFile, type Target, type TargetState } from "./target.ts";

/**
 * A mirror on disk or on a mounted volume. Each file is written to a temporary name beside it and
 * renamed into place, so a reader never sees half a file. What it holds is read from its manifest
 * when size and mtime still match (like rsync's quick check), else by hashing the file.
 */
export class DirectoryTarget implements Target {
  readonly name: string;
  readonly requests = null;
  private readonly root: string;
  /** mtime of each file as last written or checked, for the next quick check. */
  private readonly mtimes = new Map<string, number>();
  private hadManifest = false;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.name = this.root;
  }

  async read(): Promise<TargetState> {
    const top = await stat(this.root).catch(() => null);
    const files = new Map<string, { size: number; md5: string }>();
    if (top === null) return { files, published: null };
    if (!top.isDirectory()) throw new UserError(`--to ${this.root} exists and is not a folder`);
    const manifestBytes = await readFile(path.join(this.root, PUBLISHED_PATH)).catch(() => null);
    const published = manifestBytes === null ? null : decodeManifest(manifestBytes);
    this.hadManifest = published !== null;
    const names = (await readdir(this.root, { recursive: true, withFileTypes: true }))
      .filter((d) => d.isFile())
      .map((d) => path.relative(this.root, path.join(d.parentPath, d.name)).split(path.sep).join("/"))
      .filter((rel) => rel !== PUBLISHED_PATH);
    if (published === null && names.length > 0) {
      // Deleting what another program put there would be a disaster; an empty or new folder is fine.
      throw new UserError(`--to ${this.root} is not empty and was not published by catalogue (no ${PUBLISHED_PATH}): choose a new or empty folder`);
    }
    await mapLimit(names.sort(), 16, async (rel) => {
      const abs = path.join(this.root, rel);
      const info = await stat(abs);
      const recorded: StoredEntry | undefined = published?.get(rel);
      const md5 =
        recorded !== undefined && recorded.size === info.size && recorded.mtimeMs === info.mtimeMs ? recorded.md5 : (await hashFile(abs)).md5;
      files.set(rel, { size: info.size, md5 });
      this.mtimes.set(rel, info.mtimeMs);
    });
    return { files, published };
  }

  async begin(): Promise<void> {
    // Claims the folder first, so that a run killed half-way can be re-run (see read()).
    if (!this.hadManifest) await this.writeManifest({ date: "", files: new Map() });
  }

  async put(file: SourceFile): Promise<void> {
    const dest = path.join(this.root, file.path);
    await mkdir(path.dirname(dest), { recursive: true });
    const temp = tempName(dest);
    try {
      if (file.bytes !== null) await writeFile(temp, file.bytes);
      else await copyFile(file.abs!, temp);
      await rename(temp, dest);
    } catch (error) {
      await rm(temp, { force: true });
      throw explain(error, `write ${dest}`);
    }
    this.mtimes.set(file.path, (await stat(dest)).mtimeMs);
  }

  async remove(paths: string[]): Promise<void> {
    const folders = new Set<string>();
    for (const rel of paths) {
      await unlink(path.join(this.root, rel)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw explain(error, `delete ${rel}`);
      });
      this.mtimes.delete(rel);
      for (let dir = path.posix.dirname(rel); dir !== "."; dir = path.posix.dirname(dir)) folders.add(dir);
    }
    // Deepest first; a folder that still holds something stays.
    for (const dir of [...folders].sort((a, b) => b.length - a.length)) await rmdir(path.join(this.root, dir)).catch(() => {});
  }

  async finish(published: Published): Promise<void> {
    await this.writeManifest(published);
  }

  async abort(published: Published): Promise<void> {
    await this.writeManifest(published);
  }

  private async writeManifest(published: Published) {
    const dest = path.join(this.root, PUBLISHED_PATH);
    await mkdir(path.dirname(dest), { recursive: true });
    const temp = tempName(dest);
    await writeFile(temp, encodeManifest(published, (rel) => ({ mtimeMs: this.mtimes.get(rel) })));
    await rename(temp, dest);
  }
}

const tempName = (dest: string) => path.join(path.dirname(dest), `.${path.basename(dest)}.${process.pid}.tmp`);

function explain(error: unknown, action: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOSPC" || code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "EDQUOT") {
    return new UserError(`cannot ${action}: ${(error as Error).message}`);
  }
  return error as Error;
}
