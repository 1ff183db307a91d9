import { execFile } from "node:child_process";
import { cp, mkdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inputFingerprint } from "../../src/pipeline/fingerprint.ts";
import { ROOT, tempDir } from "../helpers/catalogue.ts";

/**
 * The inputs' fingerprint keeps each CSV's SHA-256 with its stat signature (git's rule): an
 * unchanged signature is not read again, any change is, and the fingerprint is always what the
 * bytes give.
 */
let dir: string;
let cleanup: () => Promise<void>;
const OPTIONS = { date: "2026-11-20", site: false, domains: null, version: 1 };
const CSV = "id,title\n1,Nosferatu\n2,Metropolis\n";
/** A time well before now, for mtimes. */
const LONG_AGO = new Date(Date.now() - 60_000);
const FOLDERS = ["a", "b", "c", "t", "e", "r", "s", "n"];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-fingerprint-"));
  for (const name of FOLDERS) {
    const folder = path.join(dir, name, "content");
    await mkdir(folder, { recursive: true });
    await mkdir(path.join(dir, name, "versions"));
    await writeFile(
      path.join(folder, "content.csv"),
      name === "b" ? CSV.replace("Nosferatu", "Nosferatu!") : CSV,
    );
    await utimes(path.join(folder, "content.csv"), LONG_AGO, LONG_AGO);
  }
  // Files changed (ctime) less than two seconds before they are read are not recorded (racy).
  await new Promise((resolve) => setTimeout(resolve, 2100));
}, 10_000);
afterAll(() => cleanup?.());

/** One of the folders made above: a content folder with one CSV, and a folder beside it for the digests. */
async function content(name: string) {
  const folder = path.join(dir, name, "content");
  return {
    csv: path.join(folder, "content.csv"),
    content: folder,
    digests: path.join(dir, name, "versions", "digests.json"),
  };
}

const recorded = async (digests: string) =>
  JSON.parse(await readFile(digests, "utf8")).files as Record<
    string,
    { signature: string; sha256: string }
  >;

describe("the inputs' fingerprint", () => {
  it("is the bytes' fingerprint, with or without recorded digests, and records them beside the output", async () => {
    const a = await content("a");
    const plain = await inputFingerprint(a.content, OPTIONS);
    expect(await inputFingerprint(a.content, OPTIONS, a.digests)).toBe(plain);
    expect(Object.keys(await recorded(a.digests))).toEqual([path.resolve(a.csv)]);
    expect(await inputFingerprint(a.content, OPTIONS, a.digests)).toBe(plain);
    // Other content, other fingerprint; another option, another.
    const b = await content("b");
    expect(await inputFingerprint(b.content, OPTIONS, b.digests)).not.toBe(plain);
    expect(await inputFingerprint(a.content, { ...OPTIONS, site: true }, a.digests)).not.toBe(
      plain,
    );
  });

  it("does not read a CSV whose signature is the recorded one", async () => {
    const c = await content("c");
    const plain = await inputFingerprint(c.content, OPTIONS, c.digests);
    // A recorded digest is believed as long as the signature holds: proof the file was not read.
    const files = await recorded(c.digests);
    files[path.resolve(c.csv)]!.sha256 = "0".repeat(64);
    await writeFile(c.digests, JSON.stringify({ files }));
    expect(await inputFingerprint(c.content, OPTIONS, c.digests)).not.toBe(plain);
  });

  it("reads a touched CSV again, and identical bytes still give the same fingerprint (a build with nothing to do)", async () => {
    const t = await content("t");
    const plain = await inputFingerprint(t.content, OPTIONS, t.digests);
    const before = (await recorded(t.digests))[path.resolve(t.csv)]!.signature;
    const later = new Date(LONG_AGO.getTime() + 5000);
    await utimes(t.csv, later, later);
    expect(await inputFingerprint(t.content, OPTIONS, t.digests)).toBe(plain);
    // The old signature is forgotten (the new one is racy yet: recorded by a later build).
    expect((await recorded(t.digests))[path.resolve(t.csv)]?.signature).not.toBe(before);
  });

  it("reads an edited CSV again even when its size and mtime are the old ones (its ctime changed)", async () => {
    const e = await content("e");
    const plain = await inputFingerprint(e.content, OPTIONS, e.digests);
    const before = await stat(e.csv, { bigint: true });
    const edited = CSV.replace("Metropolis", "Metropolix");
    expect(BigInt(Buffer.byteLength(edited))).toBe(before.size);
    await new Promise((resolve) => setTimeout(resolve, 20)); // a ctime surely later than the recorded one
    await writeFile(e.csv, edited);
    await utimes(e.csv, LONG_AGO, LONG_AGO); // the mtime it had, to the nanosecond
    expect((await stat(e.csv, { bigint: true })).mtimeNs).toBe(before.mtimeNs);
    const fingerprint = await inputFingerprint(e.content, OPTIONS, e.digests);
    expect(fingerprint).not.toBe(plain);
    expect(fingerprint).toBe(await inputFingerprint(e.content, OPTIONS));
  });

  it("does not record a file modified less than two seconds before it was read (racy: a coarse clock could hide an edit)", async () => {
    const r = await content("r");
    await writeFile(r.csv, CSV); // modified now
    const plain = await inputFingerprint(r.content, OPTIONS, r.digests);
    expect(await recorded(r.digests).catch(() => ({}))).toEqual({});
    expect(await inputFingerprint(r.content, OPTIONS, r.digests)).toBe(plain);
  });

  it("reads a CSV replaced by another file (a new inode), and a symbolic link's target", async () => {
    const s = await content("s");
    const plain = await inputFingerprint(s.content, OPTIONS, s.digests);
    const other = path.join(dir, "other.csv");
    await writeFile(other, CSV.replace("1,", "3,"));
    await utimes(other, LONG_AGO, LONG_AGO);
    await cp(other, `${s.csv}.new`, { preserveTimestamps: true });
    await promisify(execFile)("mv", [`${s.csv}.new`, s.csv]);
    expect(await inputFingerprint(s.content, OPTIONS, s.digests)).not.toBe(plain);
    const linked = path.join(dir, "linked");
    await mkdir(linked);
    await symlink(other, path.join(linked, "content.csv"));
    expect(await inputFingerprint(linked, OPTIONS, path.join(linked, "digests.json"))).toBe(
      await inputFingerprint(s.content, OPTIONS),
    );
  });

  it("never reads a linked CSV that is no regular file (a device that never ends, a dangling link)", async () => {
    const devices = path.join(dir, "devices");
    await mkdir(devices);
    await symlink("/dev/zero", path.join(devices, "content.csv"));
    const zero = await inputFingerprint(devices, OPTIONS, path.join(devices, "digests.json"));
    expect(zero).toMatch(/^[0-9a-f]{64}$/);
    await rm(path.join(devices, "content.csv"));
    await symlink(path.join(dir, "no-such.csv"), path.join(devices, "content.csv"));
    expect(await inputFingerprint(devices, OPTIONS, path.join(devices, "digests.json"))).not.toBe(
      zero,
    );
  });

  it("saves nothing when the output's folder does not exist yet, and survives an unreadable record", async () => {
    const n = await content("n");
    const nowhere = path.join(dir, "no-such-folder", "digests.json");
    const plain = await inputFingerprint(n.content, OPTIONS, nowhere);
    await expect(stat(path.dirname(nowhere))).rejects.toThrow();
    await writeFile(n.digests, "{ not json");
    expect(await inputFingerprint(n.content, OPTIONS, n.digests)).toBe(plain);
    expect(Object.keys(await recorded(n.digests))).toHaveLength(1);
  });
});

describe("the compiled program's digest", () => {
  it("is recorded by the compilation as what hashing lib/ gives", async () => {
    const lib = path.join(ROOT, "lib");
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--input-type=module",
      "-e",
      `const p = await import(${JSON.stringify(path.join(lib, "src/program.js"))}); console.log(p.codeDigest())`,
    ]);
    expect((await readFile(path.join(lib, "code-digest"), "utf8")).trim()).toBe(stdout.trim());
  });
});
