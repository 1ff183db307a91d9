import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ListedWork } from "../../src/model/domain-view.ts";
import { subsetMarks } from "../../src/pipeline/marc-files.ts";
import {
  receiveWorks,
  sendWorks,
  writeMarcJob,
  type MarcJobInput,
} from "../../src/pipeline/marc-job.ts";
import type { MarcWork } from "../../src/marc/map.ts";
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
    works: sendWorks(some).port,
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

describe("the works sent to a MARC job", () => {
  const works = generatedWorks(3000);
  /** `works`, counting how many have been taken. */
  const counted = () => {
    const taken = { count: 0 };
    const source = (function* () {
      for (const work of works) {
        taken.count++;
        yield work;
      }
    })();
    return { taken, source };
  };
  const turns = async (count: number) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it("arrive in order, and are made only a few parts ahead of the job", async () => {
    const { taken, source } = counted();
    const sent = sendWorks(source);
    const received: MarcWork[] = [];
    const ahead: number[] = [];
    for await (const part of receiveWorks(sent.port)) {
      received.push(...part);
      await turns(5); // time enough for the main side to answer every request
      ahead.push(taken.count - received.length);
    }
    await sent.done;
    expect(received.map((work) => work.id)).toEqual(works.map((work) => work.id));
    // Never the whole set at once: a few parts of a hundred works.
    expect(Math.max(...ahead)).toBeGreaterThan(0);
    expect(Math.max(...ahead)).toBeLessThanOrEqual(500);
  });

  it("go to one job at a time, in the order the jobs were given", async () => {
    // Which job's works were made, in the order they were: all of the first's before the second's.
    const made: string[] = [];
    const source = (name: string) =>
      (function* () {
        for (const work of works.slice(0, 1000)) {
          made.push(name);
          yield work;
        }
      })();
    const given = ["first", "second", "third"].map((name) =>
      writeMarcJob({
        iso2709: path.join(dir, `${name}.mrc`),
        marcxml: path.join(dir, `${name}.xml`),
        domain: DOMAIN,
        works: sendWorks(source(name)).port,
        records: 1000,
        status: "new",
      }),
    );
    await Promise.all(given);
    expect(made).toEqual([
      ...Array<string>(1000).fill("first"),
      ...Array<string>(1000).fill("second"),
      ...Array<string>(1000).fill("third"),
    ]);
    expect(readIso2709(await readFile(path.join(dir, "third.mrc")))).toHaveLength(1000);
  });

  it("stop the job when making them fails, and the failure is the maker's", async () => {
    const failing = (function* () {
      yield* works.slice(0, 250);
      throw new Error("a bug making the works");
    })();
    const sent = sendWorks(failing);
    const job = writeMarcJob({
      iso2709: path.join(dir, "cut.mrc"),
      marcxml: path.join(dir, "cut.xml"),
      domain: DOMAIN,
      works: sent.port,
      records: 3000,
      status: "new",
    });
    await expect(sent.done).rejects.toThrow("a bug making the works");
    await expect(job).rejects.toThrow("stopped before their end");
  });

  it("are let go when the job fails before it asks for them", async () => {
    const { taken, source } = counted();
    const sent = sendWorks(source);
    await expect(
      writeMarcJob({
        iso2709: path.join(dir, "missing", "a.mrc"),
        marcxml: path.join(dir, "missing", "a.xml"),
        domain: DOMAIN,
        works: sent.port,
        records: 3000,
        status: "new",
      }),
    ).rejects.toThrow(/ENOENT/);
    await sent.done; // the job closed the channel: nothing waits on it
    expect(taken.count).toBe(0);
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
