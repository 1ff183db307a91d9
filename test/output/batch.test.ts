import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packFiles, packResult, unpackFiles, unpackResult, type BatchFile, type BatchResult } from "../../src/output/batch.ts";
import { manifestJson, type FileEntry } from "../../src/output/tree.ts";

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

  it("comes back as the same entries", () => {
    const files: BatchFile[] = [
      { rel: "a", segments: [0, 1], size: 1, key: "k" },
      { rel: "b", segments: [1, 2], size: 2 },
      { rel: "c", segments: [3, 1], size: 1, key: "k3" },
      { rel: "d", segments: [4, 1], size: 1 },
    ];
    // Keyed files come back without an MD5 (none was computed); the others with theirs.
    const result: BatchResult = {
      entries: [
        ["a", { size: 1, md5: undefined, key: "k", fresh: true }],
        ["b", { size: 2, md5: "187ef4436122d1cc2f40dc2b92f0eba0", key: undefined, fresh: false }],
        ["c", { size: 1, md5: undefined, key: "k3", fresh: false }],
        ["d", { size: 1, md5: "8277e0910d750195b448797616e091ad", key: undefined, fresh: true }],
      ],
      bytesWritten: 1,
    };
    expect(unpackResult(files, packResult(result))).toEqual(result);
  });
});

describe("the manifest's text", () => {
  it("is JSON.stringify's of the entries sorted by path, whatever the paths, keys and MD5s", () => {
    const entry = fc.record({ size: fc.nat(), md5: fc.option(fc.string(), { nil: undefined }), key: fc.option(fc.string(), { nil: undefined }) }, { requiredKeys: ["size"] });
    // Paths hold a slash (as every output path does): no integer-like property names, which objects would reorder.
    const rel = fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a}/${b}`);
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(rel, entry), { selector: ([r]) => r, maxLength: 30 }), (pairs) => {
        const entries = new Map(pairs);
        const files: Record<string, FileEntry> = {};
        for (const r of [...entries.keys()].sort()) {
          const { size, md5, key } = entries.get(r)!;
          files[r] = { size, ...(md5 === undefined ? {} : { md5 }), ...(key === undefined ? {} : { key }) };
        }
        expect(manifestJson(entries)).toBe(JSON.stringify({ files }));
      }),
    );
  });
});
