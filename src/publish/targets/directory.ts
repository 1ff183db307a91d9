import {
  copyFile,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { UserError } from "../../errors.ts";
import { isAlive } from "../../output/tree.ts";
import { hashFile } from "../../util/hash.ts";
import { mapLimit } from "../../util/concurrency.ts";
import type { Listed, PublishedEntry, SourceFile, Store } from "./target.ts";

/**
 * A mirror on disk or on a mounted volume. Each file is written to a temporary name beside it and
 * renamed into place, so a reader never sees half a file. A listing takes a file's MD5 from its
 * record when size and mtime still match (like rsync's quick check), else hashes the file.
 */
export class DirectoryStore implements Store {
  readonly kind = "store";
  readonly name: string;
  readonly requests = null;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.name = this.root;
  }

  async list(
    prefix: string,
    known?: ReadonlyMap<string, PublishedEntry>,
  ): Promise<Map<string, Listed>> {
    const files = new Map<string, Listed>();
    const top = await stat(this.root).catch(() => null);
    if (top === null) return files;
    if (!top.isDirectory()) throw new UserError(`--to ${this.root} exists and is not a folder`);
    const base = path.join(this.root, prefix);
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    const names = entries
      .filter((d) => d.isFile() && !/^\..*\.tmp$/.test(d.name))
      .map((d) =>
        path.relative(this.root, path.join(d.parentPath, d.name)).split(path.sep).join("/"),
      );
    // Leftovers of a killed run (temporary names) are removed by the next listing of their folder;
    // those of a live process (another publisher writing now) are its files in the making.
    const leftovers = entries.filter(
      (d) =>
        d.isFile() &&
        /^\..*\.tmp$/.test(d.name) &&
        !isAlive(Number(/\.(\d+)\.tmp$/.exec(d.name)?.[1])),
    );
    await Promise.all(leftovers.map((d) => rm(path.join(d.parentPath, d.name), { force: true })));
    await mapLimit(names.sort(), 16, async (rel) => {
      const abs = path.join(this.root, rel);
      const info = await stat(abs).catch(() => null);
      if (info === null) return; // removed meanwhile
      const recorded = known?.get(rel);
      const md5 =
        recorded !== undefined && recorded.size === info.size && recorded.mtimeMs === info.mtimeMs
          ? recorded.md5
          : (await hashFile(abs).catch(gone))?.md5;
      if (md5 !== undefined) files.set(rel, { size: info.size, md5, modified: info.mtimeMs }); // else removed meanwhile
    });
    return files;
  }

  async top(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    return entries.map((d) => (d.isDirectory() ? `${d.name}/` : d.name)).sort();
  }

  async get(rel: string, firstBytes?: number): Promise<Buffer | null> {
    const file = path.join(this.root, rel);
    if (firstBytes === undefined) return readFile(file).catch(() => null);
    const handle = await open(file, "r").catch(() => null);
    if (handle === null) return null;
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(firstBytes), 0, firstBytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async claimable(): Promise<void> {
    // Deleting what another program put there would be a disaster; an empty or new folder is fine.
    const names = await readdir(this.root).catch(() => []);
    if (names.length > 0)
      throw new UserError(
        `--to ${this.root} is not empty and was not published by catalogue (no _catalogue/records/): choose a new or empty folder`,
      );
  }

  async put(file: SourceFile): Promise<number> {
    const dest = path.join(this.root, file.path);
    const temp = path.join(path.dirname(dest), `.${path.basename(dest)}.${process.pid}.tmp`);
    for (let attempt = 1; ; attempt++) {
      try {
        await mkdir(path.dirname(dest), { recursive: true });
        if (file.bytes !== null) await writeFile(temp, file.bytes);
        else await copyFile(file.abs!, temp);
        await rename(temp, dest);
        return (await stat(dest)).mtimeMs;
      } catch (error) {
        await rm(temp, { force: true });
        // A publisher removing the folder's last file (a lease, another domain's) removed the folder meanwhile: make it again.
        if (
          (error as NodeJS.ErrnoException).code === "ENOENT" &&
          attempt < 5 &&
          (file.bytes !== null || (await stat(file.abs!).catch(() => null)) !== null)
        )
          continue;
        throw explain(error, `write ${dest}`);
      }
    }
  }

  async remove(paths: string[]): Promise<void> {
    const folders = new Set<string>();
    for (const rel of paths) {
      await unlink(path.join(this.root, rel)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw explain(error, `delete ${rel}`);
      });
      for (let dir = path.posix.dirname(rel); dir !== "."; dir = path.posix.dirname(dir))
        folders.add(dir);
    }
    // Deepest first; a folder that still holds something stays.
    for (const dir of [...folders].sort((a, b) => b.length - a.length))
      await rmdir(path.join(this.root, dir)).catch(() => {});
  }
}

/** Undefined for a file removed meanwhile (by another publisher); any other error stands. */
function gone(error: NodeJS.ErrnoException): undefined {
  if (error.code === "ENOENT") return undefined;
  throw error;
}

function explain(error: unknown, action: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (
    code === "ENOSPC" ||
    code === "EACCES" ||
    code === "EPERM" ||
    code === "EROFS" ||
    code === "EDQUOT"
  ) {
    return new UserError(`cannot ${action}: ${(error as Error).message}`);
  }
  return error as Error;
}
