import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BatchFiles,
  forEachPackedFile,
  ResultPacker,
  unpackResult,
  type Identity,
  type PackedFile,
} from "../../src/output/packed-batch.ts";

// Paths and identities hold no NUL (the text's separator); a key is never empty.
const text = (minLength: number) =>
  fc.string({
    unit: fc.constantFrom("a", "/", ".", "é", "日", " ", "\t", "😀", "\ud800"),
    minLength,
    maxLength: 10,
  });
const identity: fc.Arbitrary<Identity | undefined> = fc.option(
  fc.record({ size: fc.nat(), id: text(1) }),
  { nil: undefined },
);
const piece = fc.uint8Array({ maxLength: 12 });
const file = fc.record({
  rel: text(1),
  key: fc.option(text(1), { nil: undefined }),
  previous: identity,
  inStaging: identity,
  pieces: fc.array(piece, { maxLength: 4 }),
});

describe("a batch's packed file list", () => {
  it("reads back as the files it was packed from, after crossing to a thread (structured clone)", () => {
    fc.assert(
      fc.property(fc.array(file, { maxLength: 25 }), fc.nat({ max: 40 }), (files, gap) => {
        // The pieces laid out in one buffer, after `gap` bytes, some adjacent (merged into one segment).
        const bytes = new Uint8Array(
          gap + files.reduce((n, f) => n + f.pieces.reduce((m, p) => m + p.length, 0), 0),
        );
        const packer = new BatchFiles();
        let at = gap;
        for (const { rel, key, previous, inStaging, pieces } of files) {
          packer.begin(rel, key, previous, inStaging);
          for (const p of pieces) {
            bytes.set(p, at);
            packer.segment(at, p.length);
            at += p.length;
          }
          packer.end(pieces.reduce((n, p) => n + p.length, 0));
        }
        const read: Omit<PackedFile, "views">[] = [];
        const contents: number[][] = [];
        forEachPackedFile(structuredClone(packer.packed()), bytes, ({ views, ...fields }) => {
          read.push({ ...fields });
          contents.push(views.flatMap((view) => [...view]));
        });
        expect(read).toEqual(
          files.map(({ rel, key, previous, inStaging, pieces }) => ({
            rel,
            key: key ?? "",
            size: pieces.reduce((n, p) => n + p.length, 0),
            previousSize: previous?.size ?? -1,
            previousId: previous?.id ?? "",
            stagingSize: inStaging?.size ?? -1,
            stagingId: inStaging?.id ?? "",
          })),
        );
        expect(contents).toEqual(files.map(({ pieces }) => pieces.flatMap((p) => [...p])));
        expect(packer.count).toBe(files.length);
        expect(packer.unkeyed).toEqual(
          files
            .filter((f) => f.key === undefined)
            .map(({ rel, pieces }) => ({ rel, size: pieces.reduce((n, p) => n + p.length, 0) })),
        );
      }),
    );
  });

  it("merges adjacent pieces of a file into one segment, and keeps pieces apart that are not", () => {
    const packer = new BatchFiles();
    packer.begin("a", undefined, undefined, undefined);
    packer.segment(0, 3);
    packer.segment(3, 2);
    packer.segment(10, 1);
    packer.end(6);
    const counts: number[] = [];
    forEachPackedFile(packer.packed(), new Uint8Array(11), ({ views }) =>
      counts.push(views.length),
    );
    expect(counts).toEqual([2]);
  });
});

describe("a batch's packed result", () => {
  const md5 = fc.stringMatching(/^[0-9a-f]{32}$/);

  it("reads back as the entries of the files without a key, in order, after crossing back (structured clone)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ rel: text(1), size: fc.nat(), md5, fresh: fc.boolean() }), {
          maxLength: 30,
        }),
        fc.nat(),
        (files, bytesWritten) => {
          const packer = new ResultPacker();
          for (const { md5: digest, fresh } of files) packer.add(digest, fresh);
          packer.bytesWritten = bytesWritten;
          const result = unpackResult(
            files.map(({ rel, size }) => ({ rel, size })),
            structuredClone(packer.packed()),
          );
          expect(result).toEqual({
            entries: files.map(({ rel, size, md5: digest, fresh }) => [
              rel,
              { size, md5: digest, fresh },
            ]),
            bytesWritten,
          });
        },
      ),
    );
  });

  it("refuses what is not an MD5 (the result is read 32 characters at a time)", () => {
    expect(() => new ResultPacker().add("abc", true)).toThrow(/not an MD5/);
  });
});
