import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

/**
 * A digest of everything a build's output depends on: the content folder (CSV bytes; other files
 * by path, size and mtime), the program itself (its sources and locked dependency versions) and
 * the build options. Equal fingerprints mean equal outputs, so a rebuild with nothing changed
 * skips all the work (CONTRACT: files whose bytes did not change are not rewritten).
 */
export async function inputFingerprint(contentDir: string, options: Record<string, unknown>): Promise<string> {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(options));
  for (const file of await listFiles(contentDir)) {
    const full = path.join(contentDir, file);
    if (file.endsWith(".csv")) {
      hash.update(`${file}\0`).update(await readFile(full));
    } else {
      const info = await stat(full);
      hash.update(`${file}\0${info.size}\0${info.mtimeMs}\0${info.ino}\0`);
    }
  }
  hash.update(await programDigest());
  return hash.digest("hex");
}

const ROOT = path.resolve(import.meta.dirname, "../..");
let program: Promise<string> | undefined;

/** The program's own sources and locked dependencies: an upgrade rebuilds everything. */
export function programDigest(): Promise<string> {
  program ??= (async () => {
    const hash = createHash("sha256");
    for (const dir of ["src"]) {
      for (const file of await listFiles(path.join(ROOT, dir))) hash.update(`${file}\0`).update(await readFile(path.join(ROOT, dir, file)));
    }
    for (const file of ["package-lock.json", ".eleventy.ts"]) {
      hash.update(`${file}\0`).update(await readFile(path.join(ROOT, file)).catch(() => Buffer.alloc(0)));
    }
    return hash.digest("hex");
  })();
  return program;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}
