import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { md5 } from "../../src/util/hash.ts";
import { DirectoryStore } from "../../src/publish/targets/directory.ts";
import { recordCache } from "../../src/publish/records/record-cache.ts";
import { recordPath } from "../../src/publish/records/records.ts";
import type { Store } from "../../src/publish/targets/target.ts";
import { tempDir } from "../helpers/catalogue.ts";

/**
 * The local copies of a target's records (publish/record-cache.ts): a copy is read instead of the
 * target only when its MD5 is the tag the target's listing gives, so that a publish never plans
 * from a record other than the one stored.
 */

let root: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  root = await tempDir("catalogue-record-cache-");
});
afterAll(async () => {
  await root?.cleanup();
});

const DOMAIN = "d.example";

/** A folder target whose record reads are counted. */
function countedStore(name: string): { store: Store; gets: () => number } {
  const store = new DirectoryStore(path.join(root.dir, name));
  let gets = 0;
  const get = store.get.bind(store);
  store.get = (rel: string, firstBytes?: number) => {
    if (rel === recordPath(DOMAIN)) gets++;
    return get(rel, firstBytes);
  };
  return { store, gets: () => gets };
}

async function storeRecord(store: Store, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  await store.put({
    path: recordPath(DOMAIN),
    size: bytes.length,
    md5: md5(bytes),
    abs: null,
    bytes,
    contentType: "text/tab-separated-values",
    cacheControl: "no-store",
  });
  // The tag a publish goes by: what the listing says the target holds.
  return (await store.list("_catalogue/")).get(recordPath(DOMAIN))!.md5;
}

describe("recordCache", () => {
  it("reads the target once, then its copy while the listing's tag is the copy's MD5", async () => {
    const { store, gets } = countedStore("target-a");
    const cache = recordCache(store, path.join(root.dir, "cache-a"));
    const tag = await storeRecord(store, "record one\n");
    expect((await cache.read(DOMAIN, tag))!.toString()).toBe("record one\n");
    expect(gets()).toBe(1);
    expect((await cache.read(DOMAIN, tag))!.toString()).toBe("record one\n");
    expect(gets()).toBe(1);
  });

  it("reads the target when another publisher rewrote the record, a copy is damaged, or no tag is known", async () => {
    const { store, gets } = countedStore("target-b");
    const dir = path.join(root.dir, "cache-b");
    const cache = recordCache(store, dir);
    await cache.read(DOMAIN, await storeRecord(store, "ours\n"));
    // Another publisher's record: the copy (ours) is not the one the listing names.
    const theirs = await storeRecord(store, "theirs\n");
    expect((await cache.read(DOMAIN, theirs))!.toString()).toBe("theirs\n");
    expect(gets()).toBe(2);
    // The copy now is theirs; a damaged copy (cut short) is read past.
    const [copy] = (await readdir(dir, { recursive: true })).filter((f) =>
      f.endsWith(`${DOMAIN}.tsv`),
    );
    await writeFile(path.join(dir, copy!), "thei");
    expect((await cache.read(DOMAIN, theirs))!.toString()).toBe("theirs\n");
    expect(gets()).toBe(3);
    expect((await readFile(path.join(dir, copy!))).toString()).toBe("theirs\n");
    expect((await cache.read(DOMAIN, undefined))!.toString()).toBe("theirs\n");
    expect(gets()).toBe(4);
  });

  it("keeps what a publish stored, per target: another target's copy is never read", async () => {
    const a = countedStore("target-c");
    const b = countedStore("target-d");
    const dir = path.join(root.dir, "cache-c");
    const [tagA, tagB] = [
      await storeRecord(a.store, "same\n"),
      await storeRecord(b.store, "same\n"),
    ];
    await recordCache(a.store, dir).keep(DOMAIN, Buffer.from("same\n"));
    expect((await recordCache(a.store, dir).read(DOMAIN, tagA))!.toString()).toBe("same\n");
    expect(a.gets()).toBe(0);
    expect((await recordCache(b.store, dir).read(DOMAIN, tagB))!.toString()).toBe("same\n");
    expect(b.gets()).toBe(1);
  });

  it("publishes on when the copies cannot be written, and reads every record from the target without a cache folder", async () => {
    const { store, gets } = countedStore("target-e");
    const tag = await storeRecord(store, "record\n");
    // A file where the cache folder should be: nothing can be kept.
    const blocked = path.join(root.dir, "not-a-folder");
    await writeFile(blocked, "");
    await expect(
      recordCache(store, blocked).keep(DOMAIN, Buffer.from("record\n")),
    ).resolves.toBeUndefined();
    expect((await recordCache(store, blocked).read(DOMAIN, tag))!.toString()).toBe("record\n");
    expect((await recordCache(store, undefined).read(DOMAIN, tag))!.toString()).toBe("record\n");
    expect((await recordCache(store, undefined).read(DOMAIN, tag))!.toString()).toBe("record\n");
    expect(gets()).toBe(3);
  });
});
