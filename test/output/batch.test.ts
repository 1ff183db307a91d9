import { describe, expect, it } from "vitest";
import { packFiles, packResult, unpackFiles, unpackResult, type BatchFile, type BatchResult } from "../../src/output/batch.ts";

describe("a batch crossing to a writer thread", () => {
  it("arrives with every field of every file, whatever is absent", () => {
    const files: BatchFile[] = [
      { rel: "a.json", segments: [0, 10], size: 10 },
      { rel: "domain.example/audiovisual-detail/7/título-ñ/index.html", segments: [10, 5, 40, 3], size: 8, key: "k".repeat(32), previous: { size: 8, md5: "p".repeat(32) } },
      { rel: "x/y.xlsx", segments: [], size: 0, inStaging: { size: 0, md5: "s".repeat(32) } },
      { rel: "big", segments: [2 ** 33, 3], size: 3, key: "k2", previous: { size: 2 ** 33, md5: "q".repeat(32) }, inStaging: { size: 1, md5: "r".repeat(32) } },
    ];
    expect(unpackFiles(packFiles(files))).toEqual(files);
    expect(unpackFiles(packFiles([]))).toEqual([]);
  });

  it("comes back as the same entries", () => {
    const files: BatchFile[] = [
      { rel: "a", segments: [0, 1], size: 1, key: "k" },
      { rel: "b", segments: [1, 2], size: 2 },
    ];
    const result: BatchResult = {
      entries: [
        ["a", { size: 1, md5: "0cc175b9c0f1b6a831c399e269772661", key: "k", fresh: true }],
        ["b", { size: 2, md5: "187ef4436122d1cc2f40dc2b92f0eba0", key: undefined, fresh: false }],
      ],
      bytesWritten: 1,
    };
    expect(unpackResult(files, packResult(result))).toEqual(result);
  });
});
