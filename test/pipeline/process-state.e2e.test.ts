import v8 from "node:v8";
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { MINIMAL, writeContent } from "../helpers/content.ts";
import { checkUpToDate } from "../../src/pipeline/up-to-date.ts";

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-process-state-")));
afterAll(() => cleanup());

describe("build() (the package API)", () => {
  it("changes neither V8's flags nor Eleventy's loader variable: the command makes those settings", async () => {
    const content = await writeContent(path.join(dir, "content"));
    const skip = process.env.ELEVENTY_SKIP_ESM_RESOLVER;
    const flags = vi.spyOn(v8, "setFlagsFromString");
    try {
      // With the site: Eleventy is loaded then, whose loader reads ELEVENTY_SKIP_ESM_RESOLVER.
      const summary = await buildFixture(content, path.join(dir, "out"), { site: true });
      expect(summary.skipped).toBe(false);
      expect(flags).not.toHaveBeenCalled();
      expect(process.env.ELEVENTY_SKIP_ESM_RESOLVER).toBe(skip);
    } finally {
      flags.mockRestore();
    }
  });
});

describe("the no-change check's size", () => {
  it("counts the works and domains from the CSVs' lines, less their headers, or the --domain count", async () => {
    const content = await writeContent(path.join(dir, "sized"));
    const inputs = { contentDir: content, outDir: path.join(dir, "sized-out"), site: false };
    expect((await checkUpToDate(inputs)).size).toEqual({ works: 3, domains: 2 });
    expect((await checkUpToDate({ ...inputs, domains: ["uno.example"] })).size).toEqual({
      works: 3,
      domains: 1,
    });
    // A quoted line break counts as a line: harmless for a threshold.
    await writeFile(
      path.join(content, "audiovisuals.csv"),
      MINIMAL.audiovisuals.replace("Élan,elan", '"Élan\nII",elan'),
    );
    expect((await checkUpToDate(inputs)).size).toEqual({ works: 4, domains: 2 });
  });
});
