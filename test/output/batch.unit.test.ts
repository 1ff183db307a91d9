import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { writeBatch } from "../../src/output/batch.ts";
import { BatchFiles, unpackResult } from "../../src/output/packed-batch.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { manifestText, parseManifest, type FileEntry } from "../../src/output/tree.ts";

describe("a batch crossing to a writer thread", () => {
  const md5 = (text: string) => createHash("md5").update(text).digest("hex");

  it("is written from its packed form: segments joined, keyed files written unless kept, the others' MD5s and freshness returned", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const bytes = Buffer.from("HEADbodyTAIL-unkeyed-one-two-");
      const files = new BatchFiles();
      // Two adjacent segments make one; a segment further on is another.
      files.begin("d/a.json", "k".repeat(32), undefined, undefined);
      files.segment(0, 4);
      files.segment(4, 4);
      files.segment(8, 4);
      files.end(12);
      // Without a key: hashed, written (no previous version).
      files.begin("d/é/b.txt", undefined, undefined, undefined);
      files.segment(13, 7);
      files.end(7);
      // Keyed, the previous version's file has the same key and size: kept, not written.
      files.begin("d/c.json", "c".repeat(32), { size: 4, id: "c".repeat(32) }, undefined);
      files.segment(0, 4);
      files.end(4);
      // Without a key, the same MD5 as the previous version's: not written, not fresh.
      files.begin("e/d.txt", undefined, { size: 3, id: md5("one") }, undefined);
      files.segment(21, 3);
      files.end(3);
      // Empty, keyed, with another previous key: written.
      files.begin("e/empty", "x".repeat(32), { size: 0, id: "y".repeat(32) }, undefined);
      files.end(0);
      expect(files.count).toBe(5);
      expect(files.unkeyed).toEqual([
        { rel: "d/é/b.txt", size: 7 },
        { rel: "e/d.txt", size: 3 },
      ]);
      const packed = files.packed();
      const result = writeBatch(dir, bytes, structuredClone(packed), new Set());
      expect(result).toEqual({
        md5s: md5("unkeyed") + md5("one"),
        fresh: Uint8Array.from([1, 0]),
        bytesWritten: 19,
      });
      expect((await readdir(dir, { recursive: true })).sort()).toEqual([
        "d",
        "d/a.json",
        "d/é",
        "d/é/b.txt",
        "e",
        "e/empty",
      ]);
      expect(await readFile(path.join(dir, "d/a.json"), "utf8")).toBe("HEADbodyTAIL");
      expect(await readFile(path.join(dir, "d/é/b.txt"), "utf8")).toBe("unkeyed");
      expect(await readFile(path.join(dir, "e/empty"), "utf8")).toBe("");
      expect(unpackResult(files.unkeyed, result)).toEqual({
        entries: [
          ["d/é/b.txt", { size: 7, md5: md5("unkeyed"), fresh: true }],
          ["e/d.txt", { size: 3, md5: md5("one"), fresh: false }],
        ],
        bytesWritten: 19,
      });
    } finally {
      await cleanup();
    }
  });

  it("leaves a recycled file that holds the right bytes, and replaces one that does not", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeFile(path.join(dir, "same.txt"), "same");
      await writeFile(path.join(dir, "other.txt"), "old bytes");
      const bytes = Buffer.from("samenew!");
      const files = new BatchFiles();
      files.begin("same.txt", "k1", undefined, { size: 4, id: "k1" });
      files.segment(0, 4);
      files.end(4);
      files.begin("other.txt", "k2", undefined, { size: 9, id: "k-old" });
      files.segment(4, 4);
      files.end(4);
      const { bytesWritten } = writeBatch(dir, bytes, files.packed(), new Set());
      expect(bytesWritten).toBe(8);
      expect(await readFile(path.join(dir, "same.txt"), "utf8")).toBe("same");
      expect(await readFile(path.join(dir, "other.txt"), "utf8")).toBe("new!");
    } finally {
      await cleanup();
    }
  });

  it("holds any number of files and segments (its arrays grow), offsets beyond 32 bits included", () => {
    const files = new BatchFiles();
    for (let i = 0; i < 3000; i++) {
      files.begin(
        `f/${i}`,
        i % 2 === 0 ? `k${i}` : undefined,
        i % 3 === 0 ? { size: i, id: `p${i}` } : undefined,
        undefined,
      );
      for (let s = 0; s < i % 4; s++) files.segment(2 ** 33 + i * 100 + s * 10, 5);
      files.end((i % 4) * 5);
    }
    const { text, numbers } = files.packed();
    const fields = text.split("\0");
    expect(fields.length).toBe(3000 * 4 + 1);
    expect(fields.slice(4 * 2997, 4 * 3000)).toEqual([
      "f/2997",
      "",
      "p2997",
      "",
      "f/2998",
      "k2998",
      "",
      "",
      "f/2999",
      "",
      "",
      "",
    ]);
    // The last file: size, previous size, staging size, segment numbers, then (offset, size) pairs.
    expect([...numbers.slice(-10)]).toEqual([
      15,
      -1,
      -1,
      6,
      2 ** 33 + 299900,
      5,
      2 ** 33 + 299910,
      5,
      2 ** 33 + 299920,
      5,
    ]);
    expect(files.unkeyed.length).toBe(1500);
  });
});

describe("the manifest's text", () => {
  // What can be in the manifest: any path without a tab or line break (the writer refuses those), hex digests.
  const text = (min: number) =>
    fc.string({
      unit: fc.constantFrom("a", "/", ".", "é", "日", " ", "-", "_", "😀", '"', "\\"),
      minLength: min,
      maxLength: 12,
    });
  const digest = fc.option(fc.stringMatching(/^[0-9a-f]{32}$/), { nil: undefined });
  const entry = fc.record({ size: fc.nat(), md5: digest, key: digest }, { requiredKeys: ["size"] });
  const entries = fc
    .uniqueArray(fc.tuple(text(1), entry), { selector: ([r]) => r, maxLength: 30 })
    .map((pairs) => new Map(pairs));
  const plain = (map: ReadonlyMap<string, FileEntry>) =>
    [...map]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([r, { size, md5, key }]) => [r, size, md5, key]);

  it("reads back as the entries it was written from, sorted by path, whatever the paths, keys and MD5s", () => {
    fc.assert(
      fc.property(entries, (map) => {
        const written = manifestText(map);
        const read = parseManifest(written);
        expect([...read.keys()]).toEqual([...map.keys()].sort());
        expect(plain(read)).toEqual(plain(map));
        // The same entries in another order give the same bytes.
        expect(manifestText(new Map([...map].reverse()))).toBe(written);
      }),
    );
  });

  it("is refused when it is not a manifest, naming the line", () => {
    const valid = manifestText(new Map([["a/b.json", { size: 3, key: "k" }]]));
    expect(() => parseManifest('{"files":{}}')).toThrow(/not a catalogue manifest/);
    expect(() => parseManifest(valid.replace("\t3\t", "\tthree\t"))).toThrow(/line 2/);
    expect(() => parseManifest(valid.replace("\tk\n", "\tk\textra\n"))).toThrow(/line 2/);
    expect(() => parseManifest(valid.replace("\tk\n", "\tk"))).toThrow(/line 2/);
    expect(() => parseManifest(`${valid}\t5\t\t\n`)).toThrow(/line 3/);
    expect(parseManifest(valid).get("a/b.json")).toEqual({ size: 3, key: "k" });
  });
});
