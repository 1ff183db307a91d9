import { writeFile } from "node:fs/promises";
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
      for (const name of ["a.csv", "b.csv", "a.csv", "c.csv"]) await writeFile(`${dir}/${name}`, name);
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
});
