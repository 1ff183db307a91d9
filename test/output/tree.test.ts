import { lstat, readFile, readlink, stat, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { SharedBytes } from "../../src/output/staging.ts";
import { OutputTree, MANIFEST_PATH } from "../../src/output/tree.ts";
import { tempDir } from "../helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

async function writeTree(out: string, files: Record<string, string>) {
  const tree = await OutputTree.open(out);
  for (const [rel, data] of Object.entries(files)) await tree.write(rel, data);
  return tree.commit();
}

describe("OutputTree", () => {
  it("makes OUT a link to a complete version and lists every file in the manifest", async () => {
    const out = path.join(dir, "dist");
    const summary = await writeTree(out, { "a/b.json": "{}", "c.txt": "hello" });
    expect(summary).toMatchObject({ files: 2, written: 2, unchanged: 0, removed: 0 });
    expect((await lstat(out)).isSymbolicLink()).toBe(true);
    expect(await readlink(out)).toMatch(/^\.dist\.versions\//);
    expect(await readFile(path.join(out, "c.txt"), "utf8")).toBe("hello");
    const manifest = JSON.parse(await readFile(path.join(out, MANIFEST_PATH), "utf8"));
    expect(manifest.files).toEqual({
      "a/b.json": { size: 2, md5: "99914b932bd37a50b983c5e7c90ae93b" },
      "c.txt": { size: 5, md5: "5d41402abc4b2a76b9719d911017c592" },
    });
  });

  it("does not rewrite unchanged files and swaps nothing when nothing changed", async () => {
    const out = path.join(dir, "dist");
    await writeTree(out, { "same.txt": "same", "changed.txt": "v1", "gone.txt": "bye" });
    const before = await stat(path.join(out, "same.txt"));
    const target = await readlink(out);
    const summary = await writeTree(out, { "same.txt": "same", "changed.txt": "v2", "new.txt": "hi" });
    expect(summary).toMatchObject({ files: 3, written: 2, unchanged: 1, removed: 1 });
    const after = await stat(path.join(out, "same.txt"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await readFile(path.join(out, "changed.txt"), "utf8")).toBe("v2");
    await expect(stat(path.join(out, "gone.txt"))).rejects.toThrow();
    const second = await readlink(out);
    expect(second).not.toBe(target);
    const again = await writeTree(out, { "same.txt": "same", "changed.txt": "v2", "new.txt": "hi" });
    expect(again).toMatchObject({ written: 0, unchanged: 3, removed: 0 });
    expect(await readlink(out)).toBe(second);
  });

  it("keeps a keyed file without producing it when its key is unchanged", async () => {
    const out = path.join(dir, "dist");
    let produced = 0;
    const produce = (text: string) => () => {
      produced++;
      return text;
    };
    let tree = await OutputTree.open(out);
    await tree.writeKeyed("page.json", "k1", produce("one"));
    await tree.commit();
    tree = await OutputTree.open(out);
    await tree.writeKeyed("page.json", "k1", produce("never read"));
    expect(await tree.commit()).toMatchObject({ written: 0, unchanged: 1 });
    expect(produced).toBe(1);
    tree = await OutputTree.open(out);
    await tree.writeKeyed("page.json", "k2", produce("two"));
    expect(await tree.commit()).toMatchObject({ written: 1, unchanged: 0 });
    expect(produced).toBe(2);
    expect(await readFile(path.join(out, "page.json"), "utf8")).toBe("two");
  });

  it("leaves the previous output whole when a build is aborted", async () => {
    const out = path.join(dir, "dist");
    await writeTree(out, { "a.txt": "old" });
    const tree = await OutputTree.open(out);
    await tree.write("a.txt", "new");
    await tree.abort();
    expect(await readFile(path.join(out, "a.txt"), "utf8")).toBe("old");
  });

  it("refuses to replace a folder that is not a catalogue build, and a second concurrent build", async () => {
    const out = path.join(dir, "precious");
    await mkdir(out);
    await writeFile(path.join(out, "thesis.tex"), "...");
    await expect(OutputTree.open(out)).rejects.toThrow(/is not a catalogue build/);
    const dist = path.join(dir, "dist");
    const first = await OutputTree.open(dist);
    await expect(OutputTree.open(dist)).rejects.toThrow(/another build/);
    await first.abort();
    await expect(OutputTree.open(dist).then((t) => t.abort())).resolves.toBeUndefined();
  });

  it("refuses paths that would leave the output", async () => {
    const tree = await OutputTree.open(path.join(dir, "dist"));
    await expect(tree.write("../x", "a")).rejects.toThrow(/refusing/);
    await expect(tree.write("/etc/x", "a")).rejects.toThrow(/refusing/);
    await expect(tree.write("a/./b", "a")).rejects.toThrow(/refusing/);
    await tree.abort();
  });
});

describe("write batches and writer threads", () => {
  it("keep every file whole when stages write at once, shared parts included, with batches smaller than some files", async () => {
    const out = path.join(dir, "dist");
    // 1 KB batches: nearly every write waits for a batch to go to a thread, and meanwhile the
    // other stage writes into the next batch.
    const tree = await OutputTree.open(out, { batchBytes: 1024, threads: 2 });
    const expected = new Map<string, string>();
    const shared = new SharedBytes([Buffer.from("é".repeat(150)), Buffer.from("-shared-")]);
    const sharedText = "é".repeat(150) + "-shared-";
    const stage = async (name: string, count: number) => {
      for (let i = 0; i < count; i++) {
        const rel = `${name}/${i}.txt`;
        const text = `${name} ${i} ` + "x".repeat((i * 37) % 1500);
        if (i % 3 === 0) {
          await tree.write(rel, [`<${i}>`, shared, Buffer.from(text)]);
          expected.set(rel, `<${i}>${sharedText}${text}`);
        } else {
          await tree.write(rel, text);
          expected.set(rel, text);
        }
      }
    };
    await Promise.all([stage("api", 300), stage("site", 300)]);
    const summary = await tree.commit();
    expect(summary.files).toBe(600);
    for (const [rel, text] of expected) expect(await readFile(path.join(out, rel), "utf8")).toBe(text);
    const manifest = JSON.parse(await readFile(path.join(out, MANIFEST_PATH), "utf8"));
    expect(manifest.files["site/3.txt"]).toEqual({ size: Buffer.byteLength(expected.get("site/3.txt")!), md5: createHash("md5").update(expected.get("site/3.txt")!).digest("hex") });
  });

  it("reports a write that fails in a writer thread as a UserError naming the path", async () => {
    const out = path.join(dir, "dist");
    const tree = await OutputTree.open(out, { batchBytes: 1024, threads: 1 });
    // A file where a folder must go: the thread's mkdir fails with ENOTDIR/EEXIST.
    await tree.write("blocked", "a file");
    await tree.flush();
    for (let i = 0; i < 50; i++) await tree.write(`blocked/${i}.txt`, "y".repeat(100)).catch(() => {});
    await expect(tree.commit()).rejects.toThrow(/cannot write the output at .*blocked.*(EEXIST|ENOTDIR)/);
  });
});

describe("kept files", () => {
  it("are hard-linked into the new version while the build goes on, every one of them, and changed ones rewritten", async () => {
    const out = path.join(dir, "dist");
    const pad = "x".repeat(300);
    const text = (i: number, version: string) => `{"page":${i},"version":"${version}","pad":"${pad}"}`;
    // Every 100th file changes in the second build: its writes fill tiny batches, so the writer
    // threads run and take the kept files' links during the build.
    const build = async (version: (i: number) => string) => {
      const tree = await OutputTree.open(out, { batchBytes: 4096, threads: 2 });
      for (let i = 0; i < 6000; i++) await tree.writeKeyed(`pages/${i % 50}/${i}.json`, `${i}-${version(i)}`, () => text(i, version(i)));
      return tree.commit();
    };
    await build(() => "v1");
    const before = await stat(path.join(out, "pages/7/57.json"));
    const summary = await build((i) => (i % 100 === 0 ? "v2" : "v1"));
    expect(summary).toMatchObject({ files: 6000, written: 60, unchanged: 5940, removed: 0 });
    for (let i = 0; i < 6000; i += 7) {
      expect(await readFile(path.join(out, `pages/${i % 50}/${i}.json`), "utf8")).toBe(text(i, i % 100 === 0 ? "v2" : "v1"));
    }
    const after = await stat(path.join(out, "pages/7/57.json"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});
