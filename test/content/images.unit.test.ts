import { mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkImage, openImageHeaderCache } from "../../src/content/source-images.ts";
import { buildFixture, generatedContent, outputFiles, tempDir } from "../helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-image-headers-")));
afterAll(() => cleanup());

const picture = (file: string, width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toFile(file);

describe("image headers remembered between builds", () => {
  it("are trusted while the file's size, times and inode stay, and read again when it changes", async () => {
    const content = path.join(dir, "content");
    await mkdir(path.join(content, "covers"), { recursive: true });
    const file = path.join(content, "covers", "a.png");
    await picture(file, 40, 30);
    const cache = path.join(dir, "cache");
    const headersFile = path.join(cache, "images", "headers.json");

    const first = await openImageHeaderCache(cache);
    expect(await checkImage(content, "covers/a.png", first)).toMatchObject({
      format: "png",
      width: 40,
      height: 30,
    });
    await first.save();
    const saved = JSON.parse(await readFile(headersFile, "utf8")) as Record<
      string,
      [string, { width: number; height: number }]
    >;
    const [abs] = Object.keys(saved);
    expect(Object.keys(saved)).toHaveLength(1);
    expect(saved[abs!]![1]).toEqual({ format: "png", width: 40, height: 30 });

    // A recorded header is used without reading the file: one that says 20,000 × 20,000 is refused.
    saved[abs!]![1] = { ...saved[abs!]![1], width: 20_000, height: 20_000 };
    await writeFile(headersFile, JSON.stringify(saved));
    expect(await checkImage(content, "covers/a.png", await openImageHeaderCache(cache))).toMatch(
      /20000x20000 pixels, more than the 50 megapixels/,
    );

    // The file changes (its mtime moves): its header is read again, and remembered.
    await picture(file, 64, 48);
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    const third = await openImageHeaderCache(cache);
    expect(await checkImage(content, "covers/a.png", third)).toMatchObject({
      width: 64,
      height: 48,
    });
    await third.save();
    expect(Object.values(JSON.parse(await readFile(headersFile, "utf8")) as object)).toEqual([
      [expect.any(String), { format: "png", width: 64, height: 48 }],
    ]);

    // A damaged file only costs reading the headers again.
    await writeFile(headersFile, "{ not json");
    expect(
      await checkImage(content, "covers/a.png", await openImageHeaderCache(cache)),
    ).toMatchObject({
      width: 64,
      height: 48,
    });
  });

  it("are kept by a build in its image cache, one per distinct image, and a rebuild from them writes what a fresh build writes", async () => {
    const root = path.join(dir, "built");
    const content = await generatedContent(root, { works: 60, domains: 2, covers: 60 });
    const out = path.join(root, "out");
    await buildFixture(content, out);
    const column = async (file: string, name: string) => {
      const [header, ...rows] = (await readFile(path.join(content, file), "utf8"))
        .trim()
        .split("\n")
        .map((line) => line.split(","));
      return rows.map((row) => row[header!.indexOf(name)]!).filter(Boolean);
    };
    const distinct = new Set([
      ...(await column("audiovisuals.csv", "cover")),
      ...(await column("directors.csv", "photo")),
    ]);
    const recorded = JSON.parse(
      await readFile(path.join(root, ".cache", "images", "headers.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(
      Object.keys(recorded)
        .map((abs) => path.relative(content, abs))
        .sort(),
    ).toEqual([...distinct].sort());

    const csv = path.join(content, "audiovisuals.csv");
    await writeFile(
      csv,
      (await readFile(csv, "utf8")).replace(/\n1,([^,]+),/, "\n1,$1 (restaurada),"),
    );
    await buildFixture(content, out);
    const fresh = path.join(dir, "fresh", "out");
    await buildFixture(content, fresh);
    expect(await outputFiles(out)).toEqual(await outputFiles(fresh));
  });
});
