import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OutputTree } from "../../src/output/tree.ts";
import { tempDir } from "../helpers/catalogue.ts";

/**
 * OutputTree's kept files across three builds of thousands of files each (a large build's load
 * on the file system, hence e2e; test/output/tree.unit.test.ts has the rest of the tree).
 */

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

describe("kept files", () => {
  it("are hard-linked into the new version while the build goes on, every one of them, and changed ones rewritten", async () => {
    const out = path.join(dir, "dist");
    const pad = "x".repeat(300);
    const text = (i: number, version: string) =>
      `{"page":${i},"version":"${version}","pad":"${pad}"}`;
    // Every 100th file changes in the second build: its writes fill tiny batches, so the writer
    // threads run and take the kept files' links during the build.
    const build = async (version: (i: number) => string) => {
      const tree = await OutputTree.open(out, { batchBytes: 4096, threads: 2 });
      for (let i = 0; i < 6000; i++)
        await tree.writeKeyed(`pages/${i % 50}/${i}.json`, `${i}-${version(i)}`, {
          produce: () => text(i, version(i)),
        });
      return tree.commit();
    };
    await build(() => "v1");
    const before = await stat(path.join(out, "pages/7/57.json"));
    const summary = await build((i) => (i % 100 === 0 ? "v2" : "v1"));
    expect(summary).toMatchObject({ files: 6000, written: 60, unchanged: 5940, removed: 0 });
    for (let i = 0; i < 6000; i += 7) {
      expect(await readFile(path.join(out, `pages/${i % 50}/${i}.json`), "utf8")).toBe(
        text(i, i % 100 === 0 ? "v2" : "v1"),
      );
    }
    const after = await stat(path.join(out, "pages/7/57.json"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    // The third build recycles the first version (in the threads too): files changed since it
    // are replaced or linked again from the second, the others stay where they are.
    const third = (i: number) => (i % 100 === 0 ? "v2" : i % 75 === 0 ? "v3" : "v1");
    expect(await build(third)).toMatchObject({ files: 6000, written: 60, unchanged: 5940 });
    for (let i = 0; i < 6000; i++)
      expect(await readFile(path.join(out, `pages/${i % 50}/${i}.json`), "utf8")).toBe(
        text(i, third(i)),
      );
  });
});
