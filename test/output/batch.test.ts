import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packFiles, packResult, unpackFiles, unpackResult, type BatchFile, type BatchResult } from "../../src/output/batch.ts";
import { manifestText, parseManifest, type FileEntry } from "../../src/output/tree.ts";

describe("a batch crossing to a writer thread", () => {
  it("arrives with every field of every file, whatever is absent", () => {
    const files: BatchFile[] = [
      { rel: "a.json", segments: [0, 10], size: 10 },
      { rel: "domain.example/audiovisual-detail/7/título-ñ/index.html", segments: [10, 5, 40, 3], size: 8, key: "k".repeat(32), previous: { size: 8, id: "p".repeat(32) } },
      { rel: "x/y.xlsx", segments: [], size: 0, inStaging: { size: 0, id: "s".repeat(32) } },
      { rel: "big", segments: [2 ** 33, 3], size: 3, key: "k2", previous: { size: 2 ** 33, id: "q".repeat(32) }, inStaging: { size: 1, id: "r".repeat(32) } },
    ];
    expect(unpackFiles(packFiles(files))).toEqual(files);
    expect(unpackFiles(packFiles([]))).toEqual([]);
  });

  it("comes back as the entries of the files without a key", () => {
    const files: BatchFile[] = [
      { rel: "a", segments: [0, 1], size: 1, key: "k" },
      { rel: "b", segments: [1, 2], size: 2 },
      { rel: "c", segments: [3, 1], size: 1, key: "k3" },
      { rel: "d", segments: [4, 1], size: 1 },
    ];
    // Keyed files were recorded by the main thread when it handed them over; the others come
    // back with their MD5s and freshness, in order.
    const written: BatchResult = {
      entries: [
        ["a", { size: 1, md5: undefined, key: "k", fresh: true }],
        ["b", { size: 2, md5: "187ef4436122d1cc2f40dc2b92f0eba0", key: undefined, fresh: false }],
        ["c", { size: 1, md5: undefined, key: "k3", fresh: false }],
        ["d", { size: 1, md5: "8277e0910d750195b448797616e091ad", key: undefined, fresh: true }],
      ],
      bytesWritten: 1,
    };
    const result: BatchResult = {
      entries: [
        ["b", { size: 2, md5: "187ef4436122d1cc2f40dc2b92f0eba0", fresh: false }],
        ["d", { size: 1, md5: "8277e0910d750195b448797616e091ad", fresh: true }],
      ],
      bytesWritten: 1,
    };
    expect(unpackResult(files, packResult(written))).toEqual(result);
  });
});

describe("the manifest's text", () => {
  // What can be in the manifest: any path without a tab or line break (the writer refuses those), hex digests.
  const text = (min: number) => fc.string({ unit: fc.constantFrom("a", "/", ".", "é", "日", " ", "-", "_", "😀", '"', "\\"), minLength: min, maxLength: 12 });
  const digest = fc.option(fc.stringMatching(/^[0-9a-f]{32}$/), { nil: undefined });
  const entry = fc.record({ size: fc.nat(), md5: digest, key: digest }, { requiredKeys: ["size"] });
  const entries = fc.uniqueArray(fc.tuple(text(1), entry), { selector: ([r]) => r, maxLength: 30 }).map((pairs) => new Map(pairs));
  const plain = (map: ReadonlyMap<string, FileEntry>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([r, { size, md5, key }]) => [r, size, md5, key]);

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
