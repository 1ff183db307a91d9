import * as fs from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { ManifestEntries } from "./entries.ts";
import { readManifest, readManifestAgainst } from "./manifest.ts";
import { MANIFEST_PATH } from "./catalogue-paths.ts";
import type { FileEntry } from "./sink.ts";
import { CONTENT_DIGESTS, isAlive, NAME_ORDERS } from "./versions-folder.ts";

/**
 * The versions folder's housekeeping for the output tree (tree.ts): which version OUT shows,
 * the lock one build at a time holds, the marks of the versions being read, and the older
 * version a build recycles as its staging folder.
 */

/** The folder OUT currently shows, or null when there is no previous output. */
export async function currentVersion(out: string, versionsDir: string): Promise<string | null> {
  const stat = await fs.lstat(out).catch(() => null);
  if (stat === null) return null;
  if (stat.isSymbolicLink()) {
    const target = await fs.realpath(out).catch(() => null);
    if (target === null) return null;
    if (path.dirname(target) !== (await fs.realpath(versionsDir))) {
      throw new UserError(
        `${out} is a link to ${target}, not a catalogue build: remove it or choose another --out`,
      );
    }
    return target;
  }
  if (stat.isDirectory()) {
    const names = await fs.readdir(out);
    if (names.length === 0) {
      await fs.rmdir(out);
      return null;
    }
    if (names.includes("_catalogue")) return out;
    throw new UserError(
      `${out} exists and is not a catalogue build: remove it or choose another --out`,
    );
  }
  throw new UserError(`${out} exists and is not a folder: remove it or choose another --out`);
}

/** Where `holdVersion` marks the versions being read, in the versions folder. */
const READERS = "readers";

/**
 * Marks the version `dir` as being read (by `catalogue publish`) until the returned function is
 * called: builds neither recycle nor remove it meanwhile. A marker left by a process that is gone
 * holds nothing. A folder that is not a version (an adopted or copied output) needs no marker.
 */
export async function holdVersion(dir: string): Promise<() => Promise<void>> {
  const versionsDir = path.dirname(dir);
  if (!path.basename(versionsDir).endsWith(".versions")) return async () => {};
  const marker = path.join(versionsDir, READERS, `${path.basename(dir)}.${process.pid}`);
  await fs.mkdir(path.dirname(marker), { recursive: true });
  await fs.writeFile(marker, "");
  return () => fs.rm(marker, { force: true });
}

/** The versions a live process holds (see holdVersion); markers of dead processes are removed. */
async function heldVersions(versionsDir: string): Promise<Set<string>> {
  const held = new Set<string>();
  for (const marker of await fs.readdir(path.join(versionsDir, READERS)).catch(() => [])) {
    const dot = marker.lastIndexOf(".");
    if (isAlive(Number(marker.slice(dot + 1)))) held.add(marker.slice(0, dot));
    else await fs.rm(path.join(versionsDir, READERS, marker), { force: true });
  }
  return held;
}

/**
 * Turns the newest version older than the current one into the staging folder `staging`, and
 * returns its files (from its manifest); removes any other old version and abandoned staging
 * folder. Versions being read (holdVersion) are left alone. Null when there is none to recycle.
 */
export async function recycleOldVersion(
  versionsDir: string,
  current: string | null,
  staging: string,
  currentFiles: ReadonlyMap<string, FileEntry>,
): Promise<ReadonlyMap<string, FileEntry> | null> {
  const names = await fs.readdir(versionsDir);
  const keep = current === null ? "" : path.basename(current);
  const held = await heldVersions(versionsDir);
  const old = names
    .filter(
      (n) =>
        n !== "lock" &&
        n !== READERS &&
        !n.startsWith(CONTENT_DIGESTS) &&
        !n.startsWith(NAME_ORDERS) &&
        n !== keep &&
        !held.has(n),
    )
    .sort();
  const newestOld = old.filter((n) => !n.endsWith(".tmp")).at(-1);
  for (const name of old) {
    if (name !== newestOld)
      await fs.rm(path.join(versionsDir, name), { recursive: true, force: true });
  }
  if (newestOld === undefined) return null;
  const dir = path.join(versionsDir, newestOld);
  // Read against the current version's, which differs from it by what the last build changed.
  const files =
    currentFiles instanceof ManifestEntries && currentFiles.size > 0
      ? await readManifestAgainst(dir, currentFiles).catch(() => new ManifestEntries())
      : await previousManifest(dir);
  if (files.size === 0) {
    // No manifest to say what it holds: not worth trusting.
    await fs.rm(dir, { recursive: true, force: true });
    return null;
  }
  await fs.rename(dir, staging);
  // From now on its manifest would lie. A build killed from here leaves a staging folder, which
  // the next build removes rather than recycles.
  await fs.rm(path.join(staging, MANIFEST_PATH));
  return files;
}

/** The previous files, or none when the manifest is missing or unreadable: every file then counts as changed (correct, only slower). */
export const previousManifest = (dir: string): Promise<ReadonlyMap<string, FileEntry>> =>
  readManifest(dir).catch(() => new ManifestEntries());

/** One build at a time per output folder; a lock left by a dead process is taken over. */
export async function takeLock(versionsDir: string) {
  const lock = path.join(versionsDir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(lock, String(process.pid), { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(await fs.readFile(lock, "utf8").catch(() => "0"));
      if (pid > 0 && isAlive(pid)) {
        throw new UserError(
          `another build (process ${pid}) is writing this output; wait for it or remove ${lock}`,
        );
      }
      await fs.rm(lock, { force: true });
    }
  }
  throw new UserError(`cannot take the lock ${lock}`);
}

export async function releaseLock(versionsDir: string) {
  await fs.rm(path.join(versionsDir, "lock"), { force: true });
}
