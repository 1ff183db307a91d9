import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { InputError, type Problem } from "../errors.ts";

/**
 * Where a build finds the library's own site folder (src/site/custom/look.ts): `--site DIR`, else
 * `site` beside the content folder. Kept light (no engine, no template): the no-change check
 * reads only its files' signatures.
 */
export const siteFolder = (contentDir: string, siteDir?: string): string => siteDir ?? path.join(path.dirname(contentDir), "site");

/**
 * The problems of the site folder as the build would find them (its templates compiled, its
 * pages and texts checked): none when it is fine or absent. Loads the template engines.
 */
export async function siteFolderProblems(dir: string, named = false): Promise<Problem[]> {
  const { loadLook } = await import("../site/custom/look.ts");
  try {
    loadLook(dir, named);
    return [];
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
}

/**
 * The signatures of the folder's files (path, size, mtime, inode), or null when there is no
 * folder: part of the build's input fingerprint, so a save under site/ rebuilds.
 */
export function siteSignature(dir: string): string[] | null {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const info = statSync(file);
      return `${path.relative(dir, file).split(path.sep).join("/")}\0${info.size}\0${info.mtimeMs}\0${info.ino}`;
    })
    .sort();
}
