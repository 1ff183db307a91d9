import * as fs from "node:fs/promises";
import path from "node:path";

/**
 * The output folder's layout, for what reads it without opening it (src/output/tree.ts writes
 * it): light, so that a build with nothing to do loads neither the writer nor its threads.
 */

/** `.OUT.versions`, beside OUT: its versions, its lock, and what the builds keep for themselves (CONTENT_DIGESTS). */
export function versionsFolder(outDir: string): string {
  const out = path.resolve(outDir);
  return path.join(path.dirname(out), `.${path.basename(out)}.versions`);
}

/** In the versions folder: the content's digests that the no-change check keeps (src/pipeline/fingerprint.ts). */
export const CONTENT_DIGESTS = "content-digests.json";

/** In the versions folder: the names in collation order that the last build ranked (src/pipeline/name-orders.ts). */
export const NAME_ORDERS = "name-orders.json";

/** A file of the current output, read without taking the lock (null when there is none). */
export async function readCurrent(outDir: string, rel: string): Promise<Buffer | null> {
  return fs.readFile(path.join(path.resolve(outDir), rel)).catch(() => null);
}

/**
 * Removes the staging folders of builds that were killed (their process is gone), without the
 * lock: a build that has nothing to do does not open the tree, but should not leave them.
 */
export async function removeAbandoned(outDir: string): Promise<void> {
  const versionsDir = versionsFolder(outDir);
  for (const name of await fs.readdir(versionsDir).catch(() => [])) {
    const pid = Number(/-(\d+)\.tmp$/.exec(name)?.[1] ?? 0);
    if (pid > 0 && !isAlive(pid))
      await fs.rm(path.join(versionsDir, name), { recursive: true, force: true });
  }
}

/** Whether a process of this machine is still running (a lock or lease of a dead one is free). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
