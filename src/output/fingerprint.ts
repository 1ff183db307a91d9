import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { programDigest } from "../program.ts";

/**
 * A digest of everything a build's output depends on: the content folder (CSV bytes; other files
 * by path, size and mtime), the program itself (its sources and locked dependency versions) and
 * the build options. Equal fingerprints mean equal outputs, so a rebuild with nothing changed
 * skips all the work (CONTRACT: files whose bytes did not change are not rewritten).
 *
 * Read synchronously: a build with nothing to do is this and little else, and each asynchronous
 * read is several round trips through libuv's thread pool, slow on a busy machine.
 */
export async function inputFingerprint(contentDir: string, options: Record<string, unknown>): Promise<string> {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(options));
  for (const file of listFiles(contentDir)) {
    const full = path.join(contentDir, file);
    if (file.endsWith(".csv")) {
      hash.update(`${file}\0`).update(readFileSync(full));
    } else {
      const info = statSync(full);
      hash.update(`${file}\0${info.size}\0${info.mtimeMs}\0${info.ino}\0`);
    }
  }
  hash.update(await programDigest());
  return hash.digest("hex");
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
