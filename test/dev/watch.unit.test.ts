import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchFolder } from "../../src/dev/watch.ts";
import { tempDir } from "../helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-watch-")));
afterAll(() => cleanup?.());

/** Waits until `check` holds (the watcher reports asynchronously), at most `ms`. */
async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(20);
  }
}

describe("watchFolder", () => {
  it("rebuilds once for a burst of saves, and once more for saves made during a rebuild", async () => {
    const calls: string[][] = [];
    let release: () => void = () => {};
    const watcher = watchFolder(
      dir,
      async (changed) => {
        calls.push(changed);
        if (calls.length === 1) await new Promise<void>((r) => (release = r));
      },
      { quietMs: 100 },
    );
    try {
      for (const name of ["a.csv", "b.csv", "a.csv", "c.csv"])
        await writeFile(`${dir}/${name}`, name);
      await until(() => calls.length === 1);
      expect(calls[0]).toEqual(expect.arrayContaining(["a.csv", "b.csv", "c.csv"]));
      // The first rebuild is still running: two saves now wait for it, then make one rebuild.
      await writeFile(`${dir}/d.csv`, "d");
      await sleep(150);
      await writeFile(`${dir}/e.csv`, "e");
      await sleep(300);
      expect(calls.length).toBe(1);
      release();
      await until(() => calls.length === 2);
      expect(calls[1]).toEqual(expect.arrayContaining(["d.csv", "e.csv"]));
      await sleep(300);
      expect(calls.length).toBe(2);
    } finally {
      release();
      await watcher.close();
    }
    // Closed: saves no longer rebuild.
    await writeFile(`${dir}/f.csv`, "f");
    await sleep(300);
    expect(calls.length).toBe(2);
  });

  it("sees every save of a file however written: renamed over the old one, then in place, then deleted and recreated; and files in new folders", async () => {
    const root = `${dir}/editor`;
    await mkdir(root);
    await writeFile(`${root}/works.csv`, "v0");
    const calls: string[][] = [];
    const watcher = watchFolder(root, async (changed) => void calls.push(changed), { quietMs: 50 });
    /** One save, then the rebuild it must cause, naming the file. */
    const saved = async (save: () => Promise<unknown>, name: string) => {
      const before = calls.length;
      await save();
      await until(() => calls.length > before);
      await sleep(100); // a save's events may straddle the quiet time: wait for the burst to end
      expect(calls.slice(before).flat(), name).toContain(name);
    };
    try {
      // sed -i and vim: a new file renamed over the old one (the watched inode is gone).
      await saved(async () => {
        await writeFile(`${root}/.works.csv.tmp`, "v1");
        await rename(`${root}/.works.csv.tmp`, `${root}/works.csv`);
      }, "works.csv");
      await saved(() => writeFile(`${root}/works.csv`, "v2"), "works.csv");
      await saved(() => writeFile(`${root}/works.csv`, "v3"), "works.csv");
      await saved(() => rm(`${root}/works.csv`), "works.csv");
      await saved(() => writeFile(`${root}/works.csv`, "v4"), "works.csv");
      await saved(() => writeFile(`${root}/works.csv`, "v5"), "works.csv");
      // A folder made after the start, and a save inside it, in place and by rename.
      await saved(() => mkdir(`${root}/covers`), "covers");
      await saved(() => writeFile(`${root}/covers/a.jpg`, "a"), "covers/a.jpg");
      await saved(async () => {
        await writeFile(`${root}/covers/a.jpg.tmp`, "b");
        await rename(`${root}/covers/a.jpg.tmp`, `${root}/covers/a.jpg`);
      }, "covers/a.jpg");
      await saved(() => writeFile(`${root}/covers/a.jpg`, "c"), "covers/a.jpg");
    } finally {
      await watcher.close();
    }
  });
});
