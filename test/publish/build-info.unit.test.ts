import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUILD_INFO_PATH,
  buildInfoBytes,
  describeBuild,
  parseBuildInfo,
  type DomainEntry,
} from "../../src/output/build-info.ts";
import { mergedBuildJson } from "../../src/publish/records/scope.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";

const entry = (domain: string, position: number, date = "2026-11-20"): DomainEntry => ({
  domain,
  name: domain,
  base_url: `https://${domain}`,
  media_url: "https://media.example/red",
  locale: "es",
  default_ordering: "name",
  base_path: "",
  media_folder: "media.example/red",
  count: position,
  total_pages: 1,
  exports: { export_excel: `export_excel-${domain}-${date}.xlsx` },
  site: false,
  position,
  date,
});
const full = [
  entry("a.example", 0),
  entry("b.example", 1),
  entry("c.example", 2),
  entry("d.example", 3),
];
/** A shard's build description: its domains only. */
const shard = (...entries: DomainEntry[]) => describeBuild(entries);

describe("build.json of shards", () => {
  it("merges into the bytes of one full build, whichever shard stores first", () => {
    const expected = buildInfoBytes(describeBuild(full));
    const shards = [shard(full[3]!, full[0]!), shard(full[2]!), shard(full[1]!)];
    for (const order of [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
    ]) {
      let stored: Buffer | null = null;
      for (const i of order)
        stored = mergedBuildJson(
          shards[i]!,
          shards[i]!.domains.map((d) => d.domain),
          stored,
        ).bytes;
      expect(stored!.toString()).toBe(expected.toString());
    }
  });

  it("keeps each domain's date, dated by the newest; a shard replaces only its own entries", () => {
    let stored = mergedBuildJson(
      describeBuild(full),
      full.map((d) => d.domain),
      null,
    ).bytes;
    const next = shard(entry("b.example", 1, "2026-11-22"));
    stored = mergedBuildJson(next, ["b.example"], stored).bytes;
    const info = parseBuildInfo(stored)!;
    expect(info.date).toBe("2026-11-22");
    expect(info.domains.map((d) => [d.domain, d.date])).toEqual([
      ["a.example", "2026-11-20"],
      ["b.example", "2026-11-22"],
      ["c.example", "2026-11-20"],
      ["d.example", "2026-11-20"],
    ]);
  });

  it("reads a description of an older version: entries in its order, with its date", () => {
    const older = {
      generator: "catalogue",
      version: 1,
      date: "2026-11-19",
      domains: full.map(({ position: _p, date: _d, ...rest }) => rest).reverse(),
    };
    const info = parseBuildInfo(Buffer.from(JSON.stringify(older)))!;
    expect(info.domains.map((d) => [d.domain, d.position, d.date])).toEqual([
      ["d.example", 0, "2026-11-19"],
      ["c.example", 1, "2026-11-19"],
      ["b.example", 2, "2026-11-19"],
      ["a.example", 3, "2026-11-19"],
    ]);
    expect(parseBuildInfo(Buffer.from("{"))).toBeNull();
  });
});

describe("build --domain", { timeout: 120_000 }, () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let content: string;
  beforeAll(async () => {
    root = await tempDir("catalogue-build-info-");
    content = await generatedContent(root.dir, { works: 40, domains: 3 });
  });
  afterAll(async () => root?.cleanup());

  it("keeps the other domains' entries with their dates, in the order of domains.csv", async () => {
    const out = path.join(root.dir, "dist");
    await buildFixture(content, out, { date: "2026-11-20" });
    await buildFixture(content, out, { date: "2026-11-21", domains: ["domain-2.example"] });
    const info = parseBuildInfo(await readFile(path.join(out, BUILD_INFO_PATH)))!;
    expect(info.date).toBe("2026-11-21");
    expect(info.domains.map((d) => [d.domain, d.position, d.date])).toEqual([
      ["domain-1.example", 0, "2026-11-20"],
      ["domain-2.example", 1, "2026-11-21"],
      ["domain-3.example", 2, "2026-11-20"],
    ]);
  });
});
