import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CODE_ROOT, codePath } from "../program.ts";

/**
 * Code versions: the part of a kept file's key that stands for the code making its bytes. A file
 * is kept from the previous build when its key is unchanged, so a key that missed an edit of the
 * code (or an upgrade) would keep stale bytes with no error; a version number bumped by hand is
 * one that someone forgets. A version is instead a digest of the code itself, per concern (the
 * API's serializers, the spreadsheet writer, the site's templates): an edit rewrites the files of
 * the concern whose code it touches, and no others.
 */
export interface CodeConcern {
  /** Source paths (relative to the code root, as in the sources: `src/api/pages.ts`) of the modules that make the files; what they import counts too. */
  entries: readonly string[];
  /** Folders or files (relative to the code root) that the code reads at run time and that shape the bytes. */
  assets?: readonly string[];
  /** Versions of what else shapes the bytes (a library, zlib, Node's ICU), as text. */
  engines?: () => readonly string[];
}

const versions = new WeakMap<CodeConcern, string>();

/**
 * A concern's version: the MD5 of its modules (its entries and every module they load, found by
 * following their imports, each by path and bytes), of its assets and of its engines' versions.
 * It works on the sources (tests, tsx) and on the compiled lib/ of the package alike: lib/ mirrors
 * the sources' tree, and its modules import their neighbours by their `.js` names. Read
 * synchronously, once per process (the code does not change while it runs): a few dozen small files.
 */
export function codeVersion(concern: CodeConcern, root: string = CODE_ROOT): string {
  const own = root === CODE_ROOT;
  const known = own ? versions.get(concern) : undefined;
  if (known !== undefined) return known;
  const hash = createHash("md5");
  for (const file of sourceFiles(root, concern.entries.map(codePath)))
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(root, file)))
      .update("\0");
  for (const asset of concern.assets ?? []) {
    for (const file of assetFiles(root, asset))
      hash
        .update(`${file}\0`)
        .update(readFileSync(path.join(root, file)))
        .update("\0");
  }
  for (const engine of concern.engines?.() ?? []) hash.update(`${engine}\0`);
  const version = hash.digest("hex");
  if (own) versions.set(concern, version);
  return version;
}

// Relative imports and re-exports that load code (`import type` is erased: it makes no byte).
const IMPORT =
  /^\s*(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s*["'](\.[^"']+)["']|^\s*import\s*["'](\.[^"']+)["']/gm;

/** The source files `entries` load, themselves included, following relative imports (paths relative to root, sorted). */
export function sourceFiles(root: string, entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(root, file), "utf8");
    for (const match of text.matchAll(IMPORT)) {
      queue.push(
        path
          .relative(root, path.resolve(root, path.dirname(file), match[1] ?? match[2]!))
          .split(path.sep)
          .join("/"),
      );
    }
  }
  return [...seen].sort();
}

/** The files of an asset (a file, or every file under a folder), relative to root, sorted. */
function assetFiles(root: string, asset: string): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(root, asset), { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return [asset];
    throw error;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}
