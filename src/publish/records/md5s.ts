import { readFile } from "node:fs/promises";
import { md5 } from "../../util/hash.ts";
import type { PublishedEntry, SourceFile } from "../targets/target.ts";

/** A file of the build as its manifest describes it: a file written with a key has no MD5 there. */
export type UndigestedFile = Omit<SourceFile, "md5"> & { md5?: string };

/** Files read and hashed at once. */
const CONCURRENCY = 8;

/**
 * Gives every file its MD5, which S3 reports as the ETag and checks as Content-MD5. The build
 * does not hash the files it writes with a key (output/staging.ts, FileEntry): the target's
 * manifest records the key each file was published with, and the same path with the same key
 * holds the same bytes, so the MD5 recorded there is this file's. The others (new or changed
 * files, about those that will be uploaded) are read and hashed.
 */
export async function completeDigests<T extends UndigestedFile>(
  files: readonly T[],
  published: ReadonlyMap<string, PublishedEntry> | null,
): Promise<(T & { md5: string })[]> {
  const done = files.map((file) => {
    if (file.md5 !== undefined) return file as T & { md5: string };
    const recorded = published?.get(file.path);
    const known =
      recorded !== undefined &&
      file.key !== undefined &&
      recorded.key === file.key &&
      recorded.size === file.size;
    return known ? { ...file, md5: recorded.md5 } : null;
  });
  const missing = done.flatMap((file, i) => (file === null ? [i] : []));
  let next = 0;
  const worker = async () => {
    while (next < missing.length) {
      const i = missing[next++]!;
      const file = files[i]!;
      done[i] = { ...file, md5: md5(file.bytes ?? (await readFile(file.abs!))) };
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done as (T & { md5: string })[];
}
