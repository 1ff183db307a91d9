import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { SharedBytes } from "../../src/output/sink.ts";
import { holdVersion, OutputTree, MANIFEST_PATH, readManifest } from "../../src/output/tree.ts";
import { tempDir } from "../helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

async function made(folder: string, text: string): Promise<string> {
  const file = path.join(folder, `made-${text.length}`);
  await writeFile(file, text);
  return file;
}

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
    // A header, then path, size, MD5 and key (none here) of each file, sorted, separated by tabs.
    expect(await readFile(path.join(out, MANIFEST_PATH), "utf8")).toBe(
      "path\tsize\tmd5\tkey\na/b.json\t2\t99914b932bd37a50b983c5e7c90ae93b\t\nc.txt\t5\t5d41402abc4b2a76b9719d911017c592\t\n",
    );
  });

  it("does not rewrite unchanged files and swaps nothing when nothing changed", async () => {
    const out = path.join(dir, "dist");
    await writeTree(out, { "same.txt": "same", "changed.txt": "v1", "gone.txt": "bye" });
    const before = await stat(path.join(out, "same.txt"));
    const target = await readlink(out);
    const summary = await writeTree(out, {
      "same.txt": "same",
      "changed.txt": "v2",
      "new.txt": "hi",
    });
    expect(summary).toMatchObject({ files: 3, written: 2, unchanged: 1, removed: 1 });
    const after = await stat(path.join(out, "same.txt"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await readFile(path.join(out, "changed.txt"), "utf8")).toBe("v2");
    await expect(stat(path.join(out, "gone.txt"))).rejects.toThrow();
    const second = await readlink(out);
    expect(second).not.toBe(target);
    const again = await writeTree(out, {
      "same.txt": "same",
      "changed.txt": "v2",
      "new.txt": "hi",
    });
    expect(again).toMatchObject({ written: 0, unchanged: 3, removed: 0 });
    expect(await readlink(out)).toBe(second);
  });

  it("keeps a keyed file without producing it when its key is unchanged", async () => {
    const out = path.join(dir, "dist");
    let produced = 0;
    const produce = (text: string) => ({
      produce: () => {
        produced++;
        return text;
      },
    });
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

  it("takes over a file made elsewhere: renamed in, copied from another file system, keyed not hashed", async () => {
    const out = path.join(dir, "dist");
    // A file system other than the output's: /dev/shm and the temporary folder are two mounts.
    let other: string | undefined;
    for (const candidate of ["/dev/shm", "/tmp", tmpdir()])
      if ((await stat(candidate).catch(() => null))?.dev !== (await stat(dir)).dev)
        other = candidate;
    expect(other, "a folder on another file system than the output's").toBeDefined();
    const elsewhere = await mkdtemp(path.join(other!, "move-from-"));
    try {
      const near = path.join(dir, "made.mrc");
      const far = path.join(elsewhere, "made.xml");
      await writeFile(near, "iso bytes");
      await writeFile(far, "xml bytes");
      const inode = (await stat(near)).ino;
      let tree = await OutputTree.open(out);
      await tree.moveFrom("export/a.mrc", near, "k1");
      await tree.moveFrom("export/a.xml", far, "k2");
      expect(await tree.commit()).toMatchObject({ written: 2 });
      await expect(stat(near)).rejects.toThrow();
      await expect(stat(far)).rejects.toThrow();
      expect((await stat(path.join(out, "export/a.mrc"))).ino).toBe(inode);
      expect(await readFile(path.join(out, "export/a.xml"), "utf8")).toBe("xml bytes");
      // Keyed: its size and key, no MD5 (publishing hashes it when it must).
      expect(await readFile(path.join(out, MANIFEST_PATH), "utf8")).toContain(
        "export/a.mrc\t9\t\tk1\n",
      );
      // Kept when its key is the same; the source is removed all the same.
      await writeFile(near, "ISO BYTES"); // the same size: a key stands for its bytes
      tree = await OutputTree.open(out);
      await tree.moveFrom("export/a.mrc", near, "k1");
      await tree.moveFrom("export/a.xml", await made(elsewhere, "new xml"), "k3");
      expect(await tree.commit()).toMatchObject({ written: 1, unchanged: 1 });
      await expect(stat(near)).rejects.toThrow();
      expect(await readFile(path.join(out, "export/a.mrc"), "utf8")).toBe("iso bytes");
      expect(await readFile(path.join(out, "export/a.xml"), "utf8")).toBe("new xml");
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
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

  it("refuses paths that would leave the output or break the manifest's lines", async () => {
    const tree = await OutputTree.open(path.join(dir, "dist"));
    await expect(tree.write("../x", "a")).rejects.toThrow(/refusing/);
    await expect(tree.write("/etc/x", "a")).rejects.toThrow(/refusing/);
    await expect(tree.write("a/./b", "a")).rejects.toThrow(/refusing/);
    await expect(tree.write("a/b\tc", "a")).rejects.toThrow(/refusing/);
    await expect(tree.write("a/b\nc", "a")).rejects.toThrow(/refusing/);
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
    for (const [rel, text] of expected)
      expect(await readFile(path.join(out, rel), "utf8")).toBe(text);
    const manifest = await readManifest(out);
    expect(manifest.get("site/3.txt")).toEqual({
      size: Buffer.byteLength(expected.get("site/3.txt")!),
      md5: createHash("md5").update(expected.get("site/3.txt")!).digest("hex"),
    });
  });

  it("reports a write that fails in a writer thread as a UserError naming the path", async () => {
    const out = path.join(dir, "dist");
    const tree = await OutputTree.open(out, { batchBytes: 1024, threads: 1 });
    // A file where a folder must go: the thread's mkdir fails with ENOTDIR/EEXIST.
    await tree.write("blocked", "a file");
    await tree.flush();
    for (let i = 0; i < 50; i++)
      await tree.write(`blocked/${i}.txt`, "y".repeat(100)).catch(() => {});
    await expect(tree.commit()).rejects.toThrow(
      /cannot write the output at .*blocked.*(EEXIST|ENOTDIR)/,
    );
  });
});

describe("the version before the current one", () => {
  /** Every file under `root`, with its text. */
  async function filesUnder(root: string): Promise<Record<string, string>> {
    const found: Record<string, string> = {};
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      found[path.relative(root, file)] = await readFile(file, "utf8");
    }
    return found;
  }
  const versionsOf = async (out: string) =>
    (await readdir(path.join(path.dirname(out), `.${path.basename(out)}.versions`)))
      .filter((name) => name !== "lock")
      .sort();

  it("is recycled as the next version: its right files stay, others are replaced, the current version is untouched", async () => {
    const out = path.join(dir, "dist");
    const v1 = {
      "a.txt": "1",
      "same/c.txt": "same",
      "shared.txt": "v1",
      "gone/deep/e.txt": "bye",
      x: "a file, later a folder",
      "z/w.txt": "in a folder, later a file",
    };
    await writeTree(out, v1);
    const firstDir = path.join(dir, ".dist.versions", (await versionsOf(out))[0]!);
    const undone = await stat(path.join(firstDir, "a.txt"));
    const v2 = {
      "a.txt": "2",
      "same/c.txt": "same",
      "shared.txt": "v1",
      "new/h.txt": "new",
      x: "a file, later a folder",
      "z/w.txt": "in a folder, later a file",
    };
    await writeTree(out, v2);
    const secondDir = await realpath(out);
    // shared.txt is one inode in both versions: the recycled one must not be written into.
    expect((await stat(path.join(secondDir, "shared.txt"))).ino).toBe(
      (await stat(path.join(firstDir, "shared.txt"))).ino,
    );

    const v3 = {
      "a.txt": "1",
      "same/c.txt": "same",
      "shared.txt": "v3",
      "new/h.txt": "new",
      "x/y.txt": "under x",
      z: "now a file",
    };
    const summary = await writeTree(out, v3);
    expect(summary).toMatchObject({ files: 6, written: 4, unchanged: 2, removed: 2 });
    expect(await filesUnder(out)).toEqual({ ...v3, [MANIFEST_PATH]: expect.any(String) });
    // The first version's folder became the third: its a.txt ("1") was kept as it was.
    expect(await realpath(out)).not.toBe(secondDir);
    expect((await stat(path.join(out, "a.txt"))).ino).toBe(undone.ino);
    // No empty folder is left behind by the removed files.
    await expect(stat(path.join(out, "gone"))).rejects.toThrow(/ENOENT/);
    // The second version (a server may still read it) is whole, shared.txt included.
    expect(await filesUnder(secondDir)).toEqual({ ...v2, [MANIFEST_PATH]: expect.any(String) });
    expect(await versionsOf(out)).toEqual(
      [path.basename(secondDir), path.basename(await realpath(out))].sort(),
    );
    const manifest = await readManifest(out);
    expect([...manifest.keys()].sort()).toEqual(Object.keys(v3).sort());
  });

  it("is finished as a copy of the current version when nothing changed, and recycled by the next build", async () => {
    const out = path.join(dir, "dist");
    await writeTree(out, { "a.txt": "1", "b.txt": "1" });
    await writeTree(out, { "a.txt": "2", "b.txt": "1" });
    const current = await readlink(out);
    expect(await writeTree(out, { "a.txt": "2", "b.txt": "1" })).toMatchObject({
      written: 0,
      removed: 0,
    });
    expect(await readlink(out)).toBe(current);
    const versions = await versionsOf(out);
    expect(versions).toHaveLength(2);
    const copy = path.join(
      dir,
      ".dist.versions",
      versions.find((name) => !current.endsWith(name))!,
    );
    expect(await filesUnder(copy)).toEqual({
      "a.txt": "2",
      "b.txt": "1",
      [MANIFEST_PATH]: expect.any(String),
    });
    await writeTree(out, { "a.txt": "3", "b.txt": "1" });
    expect(await filesUnder(out)).toEqual({
      "a.txt": "3",
      "b.txt": "1",
      [MANIFEST_PATH]: expect.any(String),
    });
    expect(await filesUnder(path.join(dir, current))).toEqual({
      "a.txt": "2",
      "b.txt": "1",
      [MANIFEST_PATH]: expect.any(String),
    });
  });

  it("is not trusted when a build was killed while recycling it: the next build starts afresh", async () => {
    const out = path.join(dir, "dist");
    await writeTree(out, { "a.txt": "1" });
    await writeTree(out, { "a.txt": "2" });
    const tree = await OutputTree.open(out);
    await tree.write("a.txt", "3");
    // Killed here: its staging folder (the recycled version, manifest removed) stays behind.
    await (tree as unknown as { release(): Promise<void> }).release();
    await writeFile(path.join(tree.staging, "stray.txt"), "left by the killed build");
    await writeTree(out, { "a.txt": "4", "b.txt": "4" });
    expect(await filesUnder(out)).toEqual({
      "a.txt": "4",
      "b.txt": "4",
      [MANIFEST_PATH]: expect.any(String),
    });
    expect((await versionsOf(out)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});

describe("a version being read (catalogue publish)", () => {
  it("is neither recycled nor removed by the builds meanwhile, and is recycled again once released", async () => {
    const out = path.join(dir, "dist");
    await writeTree(out, { "a.txt": "1" });
    const read = await realpath(out);
    const release = await holdVersion(read);
    // Two builds: without the hold, the second would recycle the version being read.
    await writeTree(out, { "a.txt": "2" });
    await writeTree(out, { "a.txt": "3" });
    expect(await readFile(path.join(read, "a.txt"), "utf8")).toBe("1");
    expect((await readManifest(read)).get("a.txt")!.size).toBe(1);
    await release();
    await writeTree(out, { "a.txt": "4" });
    await writeTree(out, { "a.txt": "5" });
    await expect(stat(read)).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(out, "a.txt"), "utf8")).toBe("5");
  });

  it("is held only while its reader lives", async () => {
    const out = path.join(dir, "dist");
    await writeTree(out, { "a.txt": "1" });
    const read = await realpath(out);
    // A marker left by a process that is gone (pid 2^22 + 1 is above Linux's maximum).
    await mkdir(path.join(dir, ".dist.versions/readers"), { recursive: true });
    await writeFile(
      path.join(dir, ".dist.versions/readers", `${path.basename(read)}.${2 ** 22 + 1}`),
      "",
    );
    await writeTree(out, { "a.txt": "2" });
    await writeTree(out, { "a.txt": "3" });
    await expect(stat(read)).rejects.toThrow(/ENOENT/);
    expect(await readdir(path.join(dir, ".dist.versions/readers"))).toEqual([]);
  });
});
