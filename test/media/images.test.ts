import { readFile as realReadFile, utimes } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ImageSource } from "../../src/content/images.ts";
import { tempDir } from "../helpers/catalogue.ts";

// Every read of a file goes through this spy, so the test sees which sources were read.
vi.mock("node:fs/promises", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:fs/promises")>();
  return { ...original, readFile: vi.fn(original.readFile) };
});
const fsp = await import("node:fs/promises");
const { apiImages } = await import("../../src/media/images.ts");

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-media-")));
afterAll(() => cleanup());

const cover = (file: string, red: number) =>
  sharp({ create: { width: 600, height: 800, channels: 3, background: { r: red, g: 40, b: 90 } } })
    .png()
    .toFile(file);
const source = (name: string): ImageSource => ({
  rel: `covers/${name}`,
  abs: path.join(dir, "covers", name),
  format: "png",
  width: 600,
  height: 800,
});
const readsOf = (files: string[]) =>
  vi
    .mocked(fsp.readFile)
    .mock.calls.filter(([file]) => typeof file === "string" && files.includes(file)).length;

describe("processed images", () => {
  it("reads a source again only when it changed (its digest is remembered in the cache by size, mtime and inode)", async () => {
    await fsp.mkdir(path.join(dir, "covers"), { recursive: true });
    const [a, b] = [source("a.png"), source("b.png")];
    await cover(a.abs, 200);
    await cover(b.abs, 10);
    const cache = path.join(dir, "cache");

    vi.mocked(fsp.readFile).mockClear();
    const first = await apiImages([a, b], cache);
    expect(readsOf([a.abs, b.abs])).toBe(2);
    const index = JSON.parse(await realReadFile(path.join(cache, "images/sources.json"), "utf8"));
    expect(Object.keys(index).sort()).toEqual([a.abs, b.abs]);

    vi.mocked(fsp.readFile).mockClear();
    const again = await apiImages([a, b], cache);
    expect(readsOf([a.abs, b.abs])).toBe(0);
    expect(again).toEqual(first);

    // A changed cover is read, gets a new digest and so a new processed file.
    await cover(b.abs, 250);
    const later = new Date(Date.now() + 5000);
    await utimes(b.abs, later, later);
    vi.mocked(fsp.readFile).mockClear();
    const changed = await apiImages([a, b], cache);
    expect(readsOf([a.abs])).toBe(0);
    expect(readsOf([b.abs])).toBe(1);
    expect(changed.get(a.rel)).toEqual(first.get(a.rel));
    expect(changed.get(b.rel)!.file).not.toBe(first.get(b.rel)!.file);
  });
});
