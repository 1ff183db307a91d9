import * as fs from "node:fs/promises";
import path from "node:path";
import { readBuildInfo, type BuildInfo } from "../output/build-info.ts";
import { readManifest } from "../output/tree.ts";
import { CompressCache } from "./compress.ts";
import type { ServedFile } from "./served-file.ts";
import { hostTable, type HostRoutes } from "./routes.ts";

export type { ServedFile };

/** One version of the build, as `catalogue serve` reads it. */
export interface ServedBuild {
  /** The real path of the version (DIR with its links resolved). */
  root: string;
  info: BuildInfo;
  table: HostRoutes[];
  compressCache: CompressCache;
  /** The regular file at `rel`, or null when there is none inside the build. */
  file(rel: string): Promise<ServedFile | null>;
  isDirectory(rel: string): Promise<boolean>;
}

/** Remembered file lookups per version (each a path and its answer: small). */
const MAX_LOOKUPS = 50_000;

/**
 * `immutable`: the root is a committed version (DIR is a link to it), whose files never change,
 * so lookups are remembered and the manifest's MD5s and keys are the validators (a key changes
 * whenever the file's bytes do, as an MD5 does). A plain folder may be
 * edited in place: every request looks again, and validators come from size and mtime.
 */
export async function loadSite(root: string, immutable: boolean): Promise<ServedBuild> {
  const info = await readBuildInfo(root);
  const validators = immutable ? await readValidators(root) : new Map<string, string>();
  const inside = async (rel: string): Promise<string | null> => {
    // Links inside the build are followed; a link that leads out of it is treated as absent.
    const real = await fs.realpath(path.join(root, rel)).catch(() => null);
    return real !== null && real.startsWith(root + path.sep) ? real : null;
  };
  // A committed version never changes (a rebuild writes a new one), so lookups can be kept.
  const lookups = new Map<string, Promise<ServedFile | null>>();
  const lookup = async (rel: string): Promise<ServedFile | null> => {
    const real = await inside(rel);
    if (real === null) return null;
    const stat = await fs.stat(real).catch(() => null);
    if (stat === null || !stat.isFile()) return null;
    const validator = validators.get(rel);
    const etag =
      validator !== undefined
        ? `"${validator}"`
        : `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    return { rel, real, size: stat.size, etag };
  };
  return {
    root,
    info,
    table: hostTable(info),
    compressCache: new CompressCache(),
    file(rel) {
      if (!immutable) return lookup(rel);
      let found = lookups.get(rel);
      if (found === undefined) {
        if (lookups.size >= MAX_LOOKUPS) lookups.clear();
        lookups.set(rel, (found = lookup(rel)));
      }
      return found;
    },
    async isDirectory(rel) {
      const real = await inside(rel);
      return real !== null && ((await fs.stat(real).catch(() => null))?.isDirectory() ?? false);
    },
  };
}

/** Each file's MD5, else its key (a keyed file has no MD5 in the manifest). */
async function readValidators(root: string): Promise<Map<string, string>> {
  try {
    const validators = new Map<string, string>();
    for (const [rel, { md5, key }] of await readManifest(root)) {
      const validator = md5 ?? key;
      if (validator !== undefined) validators.set(rel, validator);
    }
    return validators;
  } catch {
    // Without the manifest, validators come from size and mtime: correct, only less stable.
    return new Map();
  }
}
