import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { md5 } from "../../src/util/hash.ts";
import { completeDigests, type UndigestedFile } from "../../src/publish/records/md5s.ts";
import type { PublishedEntry } from "../../src/publish/targets/target.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "digests-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const file = (rel: string, fields: Partial<UndigestedFile>): UndigestedFile => ({
  path: rel,
  size: 3,
  abs: path.join(dir, rel),
  bytes: null,
  contentType: "application/json",
  cacheControl: "no-cache",
  ...fields,
});
const recorded = (md5: string, key?: string): PublishedEntry => ({
  size: 3,
  md5,
  ...(key ? { key } : {}),
  contentType: "application/json",
  cacheControl: "no-cache",
});

describe("the MD5s publishing needs", () => {
  it("come from the target's record of the same key, else from the file's bytes", async () => {
    await writeFile(path.join(dir, "changed.json"), "new");
    await writeFile(path.join(dir, "unrecorded.json"), "abc");
    const files = [
      file("hashed.json", { md5: "m".repeat(32), abs: path.join(dir, "absent") }),
      // Not on disk: only the record can give its MD5.
      file("same-key.json", { key: "k1", abs: path.join(dir, "absent") }),
      file("changed.json", { key: "k2" }),
      file("unrecorded.json", { key: "k3" }),
      file("made.json", { key: "k4", abs: null, bytes: Buffer.from("xyz") }),
    ];
    const published = new Map([
      ["same-key.json", recorded("r".repeat(32), "k1")],
      ["changed.json", recorded("o".repeat(32), "k-old")],
      ["made.json", recorded("p".repeat(32))],
    ]);
    const done = await completeDigests(files, published);
    expect(done.map((f) => [f.path, f.md5])).toEqual([
      ["hashed.json", "m".repeat(32)],
      ["same-key.json", "r".repeat(32)],
      ["changed.json", md5("new")],
      ["unrecorded.json", md5("abc")],
      ["made.json", md5("xyz")],
    ]);
    // Nothing recorded (a new target): every keyed file is hashed.
    await expect(completeDigests([file("same-key.json", { key: "k1" })], null)).rejects.toThrow(
      /ENOENT/,
    );
  });

  it("are not taken from a record of another size", async () => {
    await writeFile(path.join(dir, "resized.json"), "abcd");
    const [done] = await completeDigests(
      [file("resized.json", { key: "k", size: 4 })],
      new Map([["resized.json", recorded("r".repeat(32), "k")]]),
    );
    expect(done!.md5).toBe(md5("abcd"));
  });
});
