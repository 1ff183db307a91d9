import { describe, expect, it } from "vitest";
import type { StagedEntry } from "../../src/output/batch.ts";
import { FileEntries } from "../../src/output/entries.ts";

describe("FileEntries", () => {
  it("reads back every entry as it was set, whichever of MD5 and key it has, in insertion order", () => {
    const set: [string, StagedEntry][] = [
      ["a/index.html", { size: 0, key: "k".repeat(32), fresh: true }],
      ["b/cover.jpg", { size: 123456789, md5: "0123456789abcdef0123456789abcdef", fresh: false }],
      ["c\u00e9/t\u00edtulo.json", { size: 7, md5: "f".repeat(32), key: "abc", fresh: true }],
      ["d", { size: 1, fresh: false }],
      // Beyond latin1 (kept as given, not copied through latin1): a CJK path, a lone surrogate, a key with an emoji.
      ["\u6620\u753b/\ud800.json", { size: 2, key: "\u{1f3ac}-\u00ff", fresh: true }],
    ];
    const entries = new FileEntries();
    for (const [rel, entry] of set) entries.set(rel, entry);
    entries.set("b/cover.jpg", { size: 5, md5: "e".repeat(32), fresh: true });
    set[1] = ["b/cover.jpg", { size: 5, md5: "e".repeat(32), fresh: true }];
    expect([...entries]).toEqual(set);
    expect(entries.size).toBe(5);
    expect(entries.get("d")).toStrictEqual({ size: 1, fresh: false });
    expect(entries.get("missing")).toBeUndefined();
    expect([entries.isFresh("a/index.html"), entries.isFresh("d"), entries.isFresh("missing")]).toEqual([true, false, false]);
    expect(entries.countFresh()).toBe(4);
    expect(new Map(entries)).toEqual(new Map(set));
  });
});
