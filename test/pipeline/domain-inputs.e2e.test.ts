import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BuildSummary } from "../../src/pipeline/pipeline.ts";
import { buildFixture, generatedContent, outputFiles, tempDir } from "../helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-domain-inputs-"));
  content = await generatedContent(dir, { works: 300, domains: 2 });
});
afterEach(() => cleanup());

type Files = Record<string, { size: number; md5: string }>;
/** Every file's size and MD5, from disk. */
const files = (out: string): Promise<Files> => outputFiles(out);

/** Builds, returning the summary and how many domains the build found unchanged and kept. */
async function build(
  out: string,
): Promise<{ summary: BuildSummary; kept: number; written: number }> {
  const stages: string[] = [];
  const summary = await buildFixture(content, out, {
    reporter: { stage: (s) => void stages.push(s), warning() {} },
  });
  const stage = stages.find((s) => s.startsWith("built the API and exports of "))!;
  return {
    summary,
    kept: Number(/\((\d+) unchanged, kept\)/.exec(stage)?.[1] ?? 0),
    written: Number(/of (\d+) domain/.exec(stage)![1]),
  };
}

/** The incremental output must be exactly what a build from scratch gives. */
async function expectFreshBuildEqual(out: string) {
  const fresh = path.join(dir, `fresh-${Math.random().toString(36).slice(2)}`);
  await mkdir(fresh);
  await build(path.join(fresh, "out"));
  expect(await files(out)).toEqual(await files(path.join(fresh, "out")));
}

async function editLines(file: string, edit: (line: string) => string) {
  const csv = path.join(content, file);
  await writeFile(csv, (await readFile(csv, "utf8")).split("\n").map(edit).join("\n"));
}

describe("a domain whose inputs did not change", () => {
  it("keeps its whole folder, not computed again, while a changed domain is rebuilt", async () => {
    const out = path.join(dir, "out");
    expect((await build(out)).kept).toBe(0);
    const page = "domain-1.example/_api/list/json/name/1.json";
    const before = await stat(path.join(out, page));
    // One availability window of the second domain only.
    let edited = false;
    await editLines("availability.csv", (line) => {
      if (edited || !/^\d+,domain-2\.example,/.test(line)) return line;
      edited = true;
      return line.replace(/,\d{4}-\d\d-\d\d,/, ",2026-11-01,");
    });
    expect(edited).toBe(true);
    const second = await build(out);
    expect(second).toMatchObject({ kept: 1, written: 1 });
    expect(second.summary.written).toBeGreaterThan(0);
    const after = await stat(path.join(out, page));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    await expectFreshBuildEqual(out);

    // The first domain's row: only that domain is rebuilt.
    await editLines("domains.csv", (line) =>
      line.replace("Red de bibliotecas 1,", "Red de bibliotecas uno,"),
    );
    expect(await build(out)).toMatchObject({ kept: 1, written: 1 });
    await expectFreshBuildEqual(out);
  });

  it("is rebuilt when anything its files show changes: a director's biography, an image's bytes", async () => {
    const out = path.join(dir, "out");
    await build(out);
    await editLines("directors.csv", (line) =>
      line.startsWith("1,") ? line.replace(/,([^,]*)$/, ",Otra biografía.") : line,
    );
    expect(await build(out)).toMatchObject({ kept: 0, written: 2 });
    await expectFreshBuildEqual(out);
    // The same path, other bytes: the processed image's content-derived name changes.
    await copyFile(
      path.join(content, "covers/cover-1.png"),
      path.join(content, "covers/cover-0.png"),
    );
    expect((await build(out)).kept).toBe(0);
    await expectFreshBuildEqual(out);
  });

  it("is rebuilt file by file when the domain's media address or language changes, as a fresh build", async () => {
    const out = path.join(dir, "out");
    await build(out);
    const detail = "domain-1.example/_api/detail/1.json";
    const cover = () =>
      readFile(path.join(out, detail), "utf8").then(
        (text) => (JSON.parse(text) as { cover: string }).cover,
      );
    // Media on another host: every image address in the domain's API changes.
    await editLines("domains.csv", (line) =>
      line.replace(/^(domain-1\.example,[^,]+,),,/, "$1,https://media.example/uno,"),
    );
    expect(await build(out)).toMatchObject({ kept: 1, written: 1 });
    expect(await cover()).toMatch(/^https:\/\/media\.example\/uno\//);
    await expectFreshBuildEqual(out);
    // Another language: the directors' default description follows it.
    await editLines("domains.csv", (line) =>
      line.startsWith("domain-1.example,") ? line.replace(",es,", ",en,") : line,
    );
    expect(await build(out)).toMatchObject({ kept: 1, written: 1 });
    await expectFreshBuildEqual(out);
  });

  it("keeps its images in a media folder it shares, and images no domain shows any more go", async () => {
    content = await generatedContent(path.join(dir, "own-covers"), {
      works: 300,
      domains: 2,
      covers: 300,
    });
    // Both domains' media in one folder of a third host; a cover per work.
    await editLines("domains.csv", (line) =>
      line.replace(/^(domain-\d\.example,[^,]+,),,/, "$1,https://media.example/shared,"),
    );
    const out = path.join(dir, "out");
    await build(out);
    const media = (m: Files) => Object.keys(m).filter((f) => f.startsWith("media.example/shared/"));
    const first = media(await files(out));
    expect(first.length).toBeGreaterThan(0);
    // The first domain stops listing every work: its images not used by the second domain go.
    await editLines("availability.csv", (line) =>
      /^\d+,domain-1\.example,/.test(line) ? "" : line,
    );
    expect(await build(out)).toMatchObject({ kept: 1, written: 1 });
    expect(media(await files(out)).length).toBeLessThan(first.length);
    await expectFreshBuildEqual(out);
  });
});

describe("the names' order kept for the next build", () => {
  it("is kept beside the versions, and a rebuild from it, or from a wrong or damaged one, writes what a fresh build writes", async () => {
    const out = path.join(dir, "out");
    await build(out);
    const kept = path.join(dir, ".out.versions", "name-orders.json");
    const orders = JSON.parse(await readFile(kept, "utf8")) as Record<string, string[]>;
    const works = (await readFile(path.join(content, "audiovisuals.csv"), "utf8"))
      .split("\n")
      .slice(1)
      .filter(Boolean);
    expect(Object.keys(orders).length).toBeGreaterThan(0);
    for (const names of Object.values(orders))
      expect(names.length).toBe(new Set(works.map((line) => line.split(",")[1])).size);
    // A title renamed to the end of the name order, then to the start: each rebuild starts from the previous order.
    let renamed = 0;
    for (const title of ["Zzz última", "Aaa primera"]) {
      await editLines("audiovisuals.csv", (line) =>
        /^1,/.test(line) ? line.replace(/^1,[^,]*,/, `1,${title} ${renamed++},`) : line,
      );
      await build(out);
      await expectFreshBuildEqual(out);
    }
    // A wrong order (reversed, with names that are not there) and a damaged file only cost time.
    const reversed = Object.fromEntries(
      Object.entries(JSON.parse(await readFile(kept, "utf8")) as Record<string, string[]>).map(
        ([locale, names]) => [locale, ["Ghost", ...names.reverse()]],
      ),
    );
    for (const text of [JSON.stringify(reversed), "{not json", JSON.stringify({ es: [1, 2] })]) {
      await editLines("audiovisuals.csv", (line) =>
        /^1,/.test(line) ? line.replace(/^1,[^,]*,/, `1,Título ${renamed++},`) : line,
      );
      await writeFile(kept, text);
      await build(out);
      await expectFreshBuildEqual(out);
    }
  });
});
