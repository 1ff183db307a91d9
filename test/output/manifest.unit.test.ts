import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileEntries, ManifestEntries } from "../../src/output/entries.ts";
import {
  ManifestOverlay,
  manifestText,
  parseManifest,
  readManifest,
  readManifestAgainst,
  writeManifest,
} from "../../src/output/manifest.ts";
import { MANIFEST_PATH } from "../../src/output/tree.ts";
import type { FileEntry } from "../../src/output/sink.ts";
import { random } from "../../scripts/generate.ts";
import { tempDir } from "../helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

/** Paths of several shapes: nested, sharing prefixes, accented and non-Latin (code unit order differs from bytes). */
const NAMES = ["a", "a-b", "a.b", "a/b", "b", "é", "ß", "z", "日本", "Ω", "0", "10", "9"];

function files(rand: () => number, count: number): Map<string, FileEntry> {
  const out = new Map<string, FileEntry>();
  while (out.size < count) {
    const parts = Array.from(
      { length: 1 + Math.floor(rand() * 3) },
      () => NAMES[Math.floor(rand() * NAMES.length)],
    );
    const rel = `${parts.join("/")}/${Math.floor(rand() * 50)}.json`;
    out.set(
      rel,
      rand() < 0.5
        ? { size: Math.floor(rand() * 1000), key: `k${Math.floor(rand() * 5)}` }
        : { size: Math.floor(rand() * 1000), md5: `m${Math.floor(rand() * 5)}` },
    );
  }
  return out;
}

/** `base` with some files changed, some removed and some added. */
function changed(rand: () => number, base: Map<string, FileEntry>): Map<string, FileEntry> {
  const out = new Map<string, FileEntry>();
  for (const [rel, entry] of base) {
    const r = rand();
    if (r < 0.1) continue;
    out.set(
      rel,
      r < 0.2
        ? { ...entry, size: entry.size + 1 }
        : r < 0.25
          ? { size: entry.size, md5: "other" }
          : entry,
    );
  }
  for (const [rel, entry] of files(rand, 20)) if (!base.has(rel)) out.set(rel, entry);
  return out;
}

async function against(text: string, base: ManifestEntries) {
  const version = path.join(dir, "version");
  await mkdir(path.join(version, path.dirname(MANIFEST_PATH)), { recursive: true });
  await writeFile(path.join(version, MANIFEST_PATH), text);
  return readManifestAgainst(version, base);
}

/** Every way a map can be read, as plain data. */
const contents = (files: ReadonlyMap<string, FileEntry>) => ({
  size: files.size,
  entries: [...files].sort(([a], [b]) => (a < b ? -1 : 1)),
});

describe("readManifestAgainst", () => {
  it("reads the same files as parseManifest, keeping only the lines that differ from the base", async () => {
    for (let seed = 1; seed <= 25; seed++) {
      const rand = random(seed);
      const base = files(rand, 1 + Math.floor(rand() * 200));
      const other = seed % 5 === 0 ? new Map([...base].slice(0, 3)) : changed(rand, base);
      const baseEntries = parseManifest(manifestText(base));
      const text = manifestText(other);
      const read = await against(text, baseEntries);
      const parsed = parseManifest(text);
      expect(read, `seed ${seed}`).toBeInstanceOf(ManifestOverlay);
      expect(contents(read), `seed ${seed}`).toEqual(contents(parsed));
      for (const rel of new Set([...base.keys(), ...other.keys(), "absent.json"])) {
        expect(read.get(rel), `seed ${seed} ${rel}`).toEqual(parsed.get(rel));
        expect((read as ManifestOverlay).fields(rel), `seed ${seed} ${rel}`).toBe(
          parsed.fields(rel),
        );
        expect(read.has(rel)).toBe(parsed.has(rel));
      }
    }
  });

  it("reads an empty version and one with nothing in common", async () => {
    const base = parseManifest(manifestText(new Map([["b/1.json", { size: 1, key: "k" }]])));
    expect(contents(await against(manifestText(new Map()), base))).toEqual({
      size: 0,
      entries: [],
    });
    const other = new Map([
      ["a/1.json", { size: 2, md5: "m" }],
      ["c/1.json", { size: 3, key: "j" }],
    ]);
    expect(contents(await against(manifestText(other), base))).toEqual(contents(other));
  });

  it("reads a text or a base out of path order whole, with the same result", async () => {
    const rand = random(7);
    const base = files(rand, 60);
    const other = changed(rand, base);
    const sorted = manifestText(other).split("\n");
    // The same lines, two of them swapped: still a manifest, no longer in order.
    const unsorted = [sorted[0], sorted[2], sorted[1], ...sorted.slice(3)].join("\n");
    const read = await against(unsorted, parseManifest(manifestText(base)));
    expect(read).toBeInstanceOf(ManifestEntries);
    expect(contents(read)).toEqual(contents(parseManifest(manifestText(other))));

    const reversed = new ManifestEntries();
    for (const rel of [...base.keys()].sort().reverse())
      reversed.add(
        rel,
        `${base.get(rel)!.size}\t${base.get(rel)!.md5 ?? ""}\t${base.get(rel)!.key ?? ""}`,
      );
    const fromReversed = await against(manifestText(other), reversed);
    expect(fromReversed).toBeInstanceOf(ManifestEntries);
    expect(contents(fromReversed)).toEqual(contents(parseManifest(manifestText(other))));
  });

  it("refuses a text that is not a manifest", async () => {
    const base = parseManifest(manifestText(new Map([["a.json", { size: 1, key: "k" }]])));
    await expect(against("a.json\t1\t\tk\n", base)).rejects.toThrow(/not a catalogue manifest/);
    await expect(against("path\tsize\tmd5\tkey\na.json\tone\t\tk\n", base)).rejects.toThrow(
      /line 2/,
    );
  });
});

describe("writeManifest", () => {
  it("writes a manifest of several megabytes, in pieces, as manifestText would", async () => {
    const entries = new FileEntries();
    const plain = new Map<string, FileEntry>();
    // Accented paths: more bytes than characters, so the pieces are measured in bytes.
    for (let i = 0; i < 30_000; i++) {
      const rel = `dominio-é${i % 7}/_api/página/${"ñ".repeat(i % 40)}${i}.json`;
      const entry = i % 3 === 0 ? { size: i, md5: `m${i}` } : { size: i, key: `k${i}` };
      entries.set(rel, { ...entry, fresh: i % 2 === 0 });
      plain.set(rel, entry);
    }
    const version = path.join(dir, "version");
    await mkdir(path.join(version, path.dirname(MANIFEST_PATH)), { recursive: true });
    await writeManifest(path.join(version, MANIFEST_PATH), entries);
    const text = manifestText(plain);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 << 20);
    expect(await readFile(path.join(version, MANIFEST_PATH), "utf8")).toBe(text);
    expect(contents(await readManifest(version))).toEqual(contents(plain));
  });
});
