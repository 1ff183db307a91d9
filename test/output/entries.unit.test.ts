import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StagedEntry } from "../../src/output/packed-batch.ts";
import { fieldsHaveKey, FileEntries, packFields, unpackFields } from "../../src/output/entries.ts";
import type { FileEntry } from "../../src/output/sink.ts";

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
    expect([
      entries.isFresh("a/index.html"),
      entries.isFresh("d"),
      entries.isFresh("missing"),
    ]).toEqual([true, false, false]);
    expect(entries.countFresh()).toBe(4);
    expect(new Map(entries)).toEqual(new Map(set));
  });
});

describe("an entry's packed fields (size, MD5, key: a manifest line's fields)", () => {
  // A key holds no tab or line break (the manifest's separators), and is never empty.
  const key = fc.string({
    unit: fc.constantFrom("a", "0", "-", ":", "é", "😀", " "),
    minLength: 1,
    maxLength: 12,
  });
  const entry: fc.Arbitrary<FileEntry> = fc.record(
    { size: fc.nat(), md5: fc.stringMatching(/^[0-9a-f]{32}$/), key },
    { requiredKeys: ["size"] },
  );

  it("read back as the entry they were packed from, from any start, and as FileEntries keeps them (fresh or not)", () => {
    fc.assert(
      fc.property(entry, fc.string({ maxLength: 5 }), fc.boolean(), (generated, before, fresh) => {
        const e = { ...generated }; // a plain object (fast-check's records have no prototype)
        expect(unpackFields(packFields(e), 0)).toStrictEqual(e);
        expect(unpackFields(before + packFields(e), before.length)).toStrictEqual(e);
        const entries = new FileEntries();
        entries.set("a", { ...e, fresh });
        expect(entries.get("a")).toStrictEqual({ ...e, fresh });
      }),
    );
  });

  it("have a key exactly when it is the entry's, compared in place", () => {
    fc.assert(
      fc.property(entry, key, (e, other) => {
        const fields = packFields(e);
        expect(fieldsHaveKey(fields, other)).toBe(e.key === other);
        if (e.key !== undefined) expect(fieldsHaveKey(fields, e.key)).toBe(true);
        expect(fieldsHaveKey(fields, "")).toBe(false);
      }),
    );
  });
});
