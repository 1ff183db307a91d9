import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { md5 } from "../../util/hash.ts";
import { recordPath } from "./records.ts";
import type { Store } from "../targets/target.ts";

/**
 * A local copy of each record a deploy last wrote or read, so that the next one reads its
 * records from disk rather than from the target (a large domain's record is megabytes, and
 * downloading them was much of a one-work deploy's publish).
 *
 * The copy is trusted only when its MD5 is the ETag that the listing of `_catalogue/` gave for
 * that record: every object is stored with one PutObject, so its ETag is the MD5 of its bytes
 * (s3.ts checks it on each upload), and such a copy is byte for byte what the target holds. Any
 * other copy (another target's, an older run's, a torn write) is ignored and the record is read
 * from the target, then kept. The copies sit under the deploy's cache folder, one folder per
 * target.
 */
export interface RecordCache {
  /** The stored record of `domain` whose MD5 the listing gave as `tag`: the local copy when it is that one, else the target's (null: none there). */
  read(domain: string, tag: string | undefined): Promise<Buffer | null>;
  /** Keeps `bytes` as the copy of `domain`'s record, once the target holds them (best effort). */
  keep(domain: string, bytes: Buffer): Promise<void>;
}

/** The records of `store`, copied under `cacheDir` (without one, every record is read from the target). */
export function recordCache(store: Store, cacheDir: string | undefined): RecordCache {
  if (cacheDir === undefined)
    return { read: (domain) => store.get(recordPath(domain)), keep: async () => {} };
  const dir = path.join(cacheDir, "records", md5(Buffer.from(store.name)).slice(0, 16));
  const file = (domain: string) => path.join(dir, `${domain}.tsv`);
  const keep = async (domain: string, bytes: Buffer) => {
    // Written aside and renamed: a reader finds a whole copy (and checks it anyway).
    const temp = `${file(domain)}.${process.pid}.tmp`;
    await mkdir(dir, { recursive: true })
      .then(() => writeFile(temp, bytes))
      .then(() => rename(temp, file(domain)))
      .catch(() => {});
  };
  return {
    async read(domain, tag) {
      if (tag !== undefined) {
        const copy = await readFile(file(domain)).catch(() => null);
        if (copy !== null && md5(copy) === tag) return copy;
      }
      const bytes = await store.get(recordPath(domain));
      if (bytes !== null) await keep(domain, bytes);
      return bytes;
    },
    keep,
  };
}
