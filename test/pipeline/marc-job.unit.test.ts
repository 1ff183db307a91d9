import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ListedWork } from "../../src/model/domain-view.ts";
import { subsetMarks } from "../../src/pipeline/marc-files.ts";
import { marcWorkParts, writeMarcJob, type MarcJobInput } from "../../src/pipeline/marc-job.ts";
import { readIso2709 } from "../marc/iso2709-reader.ts";
import { DOMAIN, SHAPES, generatedWorks } from "../marc/works.ts";
import { tempDir } from "../helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

describe("a MARC set's job", () => {
  // Enough works for many 64 KB chunks in each file, records over a chunk among them (SHAPES).
  const works = [...Object.values(SHAPES), ...generatedWorks(1500)];
  const job = (name: string, some: typeof works): MarcJobInput => ({
    iso2709: path.join(dir, `${name}.mrc`),
    marcxml: path.join(dir, `${name}.xml`),
    domain: DOMAIN,
    works: marcWorkParts(some),
    records: some.length,
    status: "new",
  });
  const files = async (name: string) => [
    await readFile(path.join(dir, `${name}.mrc`)),
    await readFile(path.join(dir, `${name}.xml`)),
  ];

  it("writes a subset's files from the set's records as the subset's own job writes them", async () => {
    const marks = Uint8Array.from(works, (_, i) => (i % 7 === 3 || i === works.length - 1 ? 1 : 0));
    const some = works.filter((_, i) => marks[i] === 1);
    await writeMarcJob({
      ...job("all", works),
      subset: {
        iso2709: path.join(dir, "some.mrc"),
        marcxml: path.join(dir, "some.xml"),
        marks,
      },
    });
    await writeMarcJob(job("all-alone", works));
    await writeMarcJob(job("some-alone", some));
    const [all, allXml] = await files("all");
    const [alone, aloneXml] = await files("all-alone");
    expect(all!.equals(alone!)).toBe(true);
    expect(allXml!.equals(aloneXml!)).toBe(true);
    const [subset, subsetXml] = await files("some");
    const [subsetAlone, subsetAloneXml] = await files("some-alone");
    expect(subset!.equals(subsetAlone!)).toBe(true);
    expect(subsetXml!.equals(subsetAloneXml!)).toBe(true);
    expect(readIso2709(subset!)).toHaveLength(some.length);
  });
});

describe("subsetMarks", () => {
  const listed = Array.from({ length: 6 }, (_, i) => ({ id: i }) as unknown as ListedWork);

  it("marks the works of a subsequence, by identity", () => {
    expect([...subsetMarks(listed, [listed[1]!, listed[4]!, listed[5]!])!]).toEqual([
      0, 1, 0, 0, 1, 1,
    ]);
    expect([...subsetMarks(listed, [])!]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("gives null for a work the set lacks or one out of its order", () => {
    const unlisted = { id: 1 } as unknown as ListedWork; // equal, not the same work
    expect(subsetMarks(listed, [listed[0]!, unlisted])).toBeNull();
    expect(subsetMarks(listed, [listed[4]!, listed[2]!])).toBeNull();
  });
});
