import { readFile as realReadFile, utimes } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ImageSource } from "../../src/content/source-images.ts";
import { tempDir } from "../helpers/catalogue.ts";

// Every read of a file goes through this spy, so the test sees which sources were read.
vi.mock("node:fs/promises", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:fs/promises")>();
  return { ...original, readFile: vi.fn(original.readFile) };
});
const fsp = await import("node:fs/promises");
const { apiImages, processImages } = await import("../../src/media/processed-images.ts");

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

describe("a logo with a transparent ground", () => {
  /** 400×100, transparent but for a red band in the middle. */
  async function logo(): Promise<ImageSource> {
    const file = path.join(dir, "logo.png");
    await sharp({
      create: { width: 400, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: {
            create: {
              width: 200,
              height: 60,
              channels: 4,
              background: { r: 200, g: 30, b: 30, alpha: 1 },
            },
          },
          left: 100,
          top: 20,
        },
      ])
      .png()
      .toFile(file);
    return { rel: "logo.png", abs: file, format: "png", width: 400, height: 100 };
  }
  const pixel = async (file: string, x: number, y: number) => {
    const { data, info } = await sharp(file)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (y * info.width + x) * 4;
    return { rgba: [...data.subarray(at, at + 4)], width: info.width, height: info.height };
  };

  it("is flattened onto the pages' paper colour, as the stylesheet names it", async () => {
    const { PAPER } = await import("../../src/site/brand.ts");
    const css = await realReadFile(
      path.join(import.meta.dirname, "../../src/site/assets/style.css"),
      "utf8",
    );
    expect(css).toContain(`--paper: ${PAPER};`);
  });

  it("is flattened onto a colour for JPEG, and squared on a transparent ground, each under a name of its own", async () => {
    const source = await logo();
    const cache = path.join(dir, "logo-cache");
    const plain = (await processImages([source], { widths: [240], formats: ["jpeg"] }, cache)).get(
      source.rel,
    )!;
    const flat = (
      await processImages([source], { widths: [240], formats: ["jpeg"], flatten: "#fbfaf7" }, cache)
    ).get(source.rel)!;
    const square = (
      await processImages([source], { widths: [64], formats: ["png"], square: true }, cache)
    ).get(source.rel)!;
    // Without flattening, JPEG turns the transparent ground black.
    expect(
      (await pixel(plain.jpeg![0]!.cachePath, 0, 0)).rgba.slice(0, 3).every((c) => c < 16),
    ).toBe(true);
    const corner = await pixel(flat.jpeg![0]!.cachePath, 0, 0);
    expect(
      corner.rgba
        .slice(0, 3)
        .map((c, i) => Math.abs(c - [0xfb, 0xfa, 0xf7][i]!))
        .every((d) => d < 6),
    ).toBe(true);
    expect([corner.width, corner.height]).toEqual([240, 60]);
    // The favicon: a square, the logo centred, the ground transparent.
    const icon = square.png![0]!;
    expect([icon.width, icon.height]).toEqual([64, 64]);
    expect((await pixel(icon.cachePath, 0, 0)).rgba[3]).toBe(0);
    expect((await pixel(icon.cachePath, 32, 32)).rgba.slice(0, 3)).toEqual([200, 30, 30]);
    expect(await pixel(icon.cachePath, 63, 63)).toMatchObject({ width: 64, height: 64 });
    // Three different files: the names say how each was made.
    const names = [plain.jpeg![0]!.file, flat.jpeg![0]!.file, icon.file];
    expect(new Set(names).size).toBe(3);
    expect(names[1]).toMatch(/-onfbfaf7-240\.jpeg$/);
    expect(names[2]).toMatch(/-square-64\.png$/);
  });
});
