import { cp, readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, generatedContent, SAMPLE_CONTENT, tempDir } from "../helpers/catalogue.ts";
import { requireTool } from "../support/requires.ts";
import { readIso2709, type ReadRecord } from "./iso2709-reader.ts";
import { perl, yaz } from "./tools.ts";

/**
 * The MARC files a build writes, as the library world's tools read them, and against what the
 * content folder says independently of the program: which works each set holds (the CSV files'
 * windows, statuses and export window; the API's listing for the full set), the deleted records'
 * 001, the same bytes from the same content and date, and a rename rewriting only the files
 * that hold the work.
 */

const hasYaz = requireTool("yaz-marcdump", "the built MARC files' tests with YAZ") !== null;
const hasPerl = ["marcdump", "xml2marc", "marclint"]
  .map((tool) => requireTool(tool, "the built MARC files' tests with Perl's MARC modules"))
  .every((found) => found !== null);

const DATE = "2026-11-20";
const KINDS = ["export_excel", "export_up_movies", "export_down_movies"] as const;
type Kind = (typeof KINDS)[number];

let dir: string;
let cleanup: () => Promise<void>;
let sample: string;
let generated: string;
let generatedContentDir: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-marc-build-"));
  sample = path.join(dir, "sample", "out");
  await buildFixture(SAMPLE_CONTENT, sample);
  generatedContentDir = await generatedContent(path.join(dir, "generated"), {
    works: 600,
    domains: 2,
  });
  // The first domain with a MARC organization code and a thesaurus, the second without.
  const domainsCsv = path.join(generatedContentDir, "domains.csv");
  const lines = (await readFile(domainsCsv, "utf8")).trimEnd().split("\n");
  await writeFile(
    domainsCsv,
    lines
      .map((line, i) =>
        i === 0
          ? `${line},marc_org_code,marc_genre_source`
          : i === 1
            ? `${line},SpMaBN,lcgft`
            : `${line},,`,
      )
      .join("\n") + "\n",
  );
  generated = path.join(dir, "generated", "out");
  await buildFixture(generatedContentDir, generated);
}, 240_000);
afterAll(() => cleanup());

type Rows = Record<string, string>[];
const csv = async (content: string, name: string): Promise<Rows> =>
  parse<Rows[number]>(await readFile(path.join(content, name)), { columns: true, bom: true });

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The works of each set, from the CSV files alone (docs/interface.md#windows). */
async function expectedSets(content: string): Promise<Map<string, Record<Kind, Set<string>>>> {
  const domains = await csv(content, "domains.csv");
  const works = new Map((await csv(content, "audiovisuals.csv")).map((w) => [w.id!, w]));
  const today = dayOf(DATE);
  const sets = new Map<string, Record<Kind, Set<string>>>();
  for (const d of domains)
    sets.set(d.domain!, {
      export_excel: new Set(),
      export_up_movies: new Set(),
      export_down_movies: new Set(),
    });
  for (const a of await csv(content, "availability.csv")) {
    const work = works.get(a.audiovisual_id!);
    const domain = domains.find((d) => d.domain === a.domain)!;
    // An empty status is 1 (docs/interface.md#input).
    if (work === undefined || (work.status_global || "1") !== "1") continue;
    const n = Number(domain.export_window_days || 30);
    const from = dayOf(a.available_from!);
    const until = a.available_until ? dayOf(a.available_until) : Infinity;
    const set = sets.get(a.domain!)!;
    if (from <= today && today <= until) set.export_excel.add(`catav${work.id}`);
    if (today - n < from && from <= today) set.export_up_movies.add(`catav${work.id}`);
    if (until !== Infinity && today - n <= until && until < today)
      set.export_down_movies.add(`catav${work.id}`);
  }
  return sets;
}

/** The domains of a build (its top folders with an API). */
async function domainsOf(out: string): Promise<string[]> {
  const names = await readdir(out);
  const found: string[] = [];
  for (const name of names)
    if (await stat(path.join(out, name, "_api/export")).catch(() => null)) found.push(name);
  return found.sort();
}

const mrcOf = (out: string, domain: string, kind: Kind) =>
  path.join(out, domain, "_api/export", `${kind}.mrc`);
const xmlOf = (out: string, domain: string, kind: Kind) =>
  path.join(out, domain, "_api/export", `${kind}.xml`);
const id001 = (record: ReadRecord) => control(record, "001") ?? "?";
function control(record: ReadRecord, tag: string): string | undefined {
  const field = record.fields.find((f) => f.tag === tag);
  return field !== undefined && "value" in field ? field.value : undefined;
}
function subfields(record: ReadRecord, tag: string): { code: string; value: string }[] | undefined {
  const field = record.fields.find((f) => f.tag === tag);
  return field !== undefined && "subfields" in field ? field.subfields : undefined;
}

/** The ids of the domain's listing in name order, from the API's own pages. */
async function listedInNameOrder(out: string, domain: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const file = path.join(out, domain, "_api/list/plain/name", `${page}.json`);
    const body = await readFile(file, "utf8").catch(() => null);
    if (body === null) return ids;
    for (const work of (JSON.parse(body) as { results: { id: number }[] }).results)
      ids.push(`catav${work.id}`);
  }
}

describe.each([
  ["the sample", () => [sample, SAMPLE_CONTENT] as const],
  ["a generated catalogue", () => [generated, generatedContentDir] as const],
])("the MARC files of %s", (_, where) => {
  it("hold each set's works: the listing in name order, the ups, the downs as deleted records", async () => {
    const [out, content] = where();
    const sets = await expectedSets(content);
    let deletes = 0;
    for (const domain of await domainsOf(out)) {
      const expected = sets.get(domain)!;
      for (const kind of KINDS) {
        const records = readIso2709(await readFile(mrcOf(out, domain, kind)));
        const ids = records.map(id001);
        expect(new Set(ids), `${domain} ${kind}`).toEqual(expected[kind]);
        expect(ids).toHaveLength(expected[kind].size);
        if (kind === "export_excel") expect(ids).toEqual(await listedInNameOrder(out, domain));
        for (const record of records) {
          // Leader/05: d in the downs (the record deleted by its own 001), n elsewhere.
          expect(record.leader[5], `${kind} ${id001(record)}`).toBe(
            kind === "export_down_movies" ? "d" : "n",
          );
          expect(record.leader.slice(6, 10)).toBe("gm a");
        }
        if (kind === "export_down_movies") deletes += records.length;
      }
    }
    expect(deletes).toBeGreaterThan(0);
  });

  it.skipIf(!hasYaz)(
    "read by yaz-marcdump without a diagnostic; the MARCXML gives the ISO 2709 file's bytes",
    async () => {
      const [out] = where();
      for (const domain of await domainsOf(out)) {
        for (const kind of KINDS) {
          const mrc = mrcOf(out, domain, kind);
          const bytes = await readFile(mrc);
          const again = await yaz(mrc, "marc", "marc");
          expect(again.stderr).toBe("");
          expect(again.bytes.equals(bytes), `${domain} ${kind}`).toBe(true);
          const fromXml = await yaz(xmlOf(out, domain, kind), "marcxml", "marc");
          expect(fromXml.stderr).toBe("");
          expect(fromXml.bytes.equals(bytes), `${domain} ${kind} MARCXML`).toBe(true);
          const dump = await yaz(mrc, "marc", "line");
          expect(dump.text.match(/^001 /gm)?.length ?? 0).toBe(readIso2709(bytes).length);
        }
      }
    },
    120_000,
  );

  it.skipIf(!hasPerl)(
    "read by MARC::Record and MARC::File::XML into the same records, with no MARC::Lint error",
    async () => {
      const [out] = where();
      for (const domain of await domainsOf(out)) {
        for (const kind of KINDS) {
          const reading = await perl(mrcOf(out, domain, kind), xmlOf(out, domain, kind));
          const ids = readIso2709(await readFile(mrcOf(out, domain, kind))).map(id001);
          expect(reading.records).toEqual(ids);
          expect(reading.decoding).toEqual({});
          expect(reading.rewritten).toEqual([]);
          expect(reading.xml).toEqual([]);
          // MARC::Lint's only message: its guess at an initial article where the title's
          // language is unknown (docs/exports.md#initial-articles).
          const other = Object.values(reading.lint)
            .flat()
            .filter((message) => !/may be an article, check 2nd indicator/.test(message));
          expect(other, `${domain} ${kind}`).toEqual([]);
        }
      }
    },
    180_000,
  );
});

describe("the built MARC files", () => {
  it("carry the domain's MARC organization code and thesaurus when domains.csv gives them", async () => {
    const [first, second] = await domainsOf(generated);
    const withCode = readIso2709(await readFile(mrcOf(generated, first!, "export_excel")));
    const without = readIso2709(await readFile(mrcOf(generated, second!, "export_excel")));
    for (const record of withCode) {
      expect(control(record, "003")).toBe("SpMaBN");
      const genre = subfields(record, "655");
      if (genre !== undefined) expect(genre.at(-1)).toEqual({ code: "2", value: "lcgft" });
    }
    for (const record of without) {
      expect(record.fields.some((f) => f.tag === "003")).toBe(false);
      const genre = subfields(record, "655");
      if (genre !== undefined) expect(genre.at(-1)).toEqual({ code: "2", value: "local" });
    }
  });

  it("are the same bytes when built again from the same content and date", async () => {
    const again = path.join(dir, "generated-again", "out");
    await buildFixture(generatedContentDir, again);
    for (const domain of await domainsOf(generated))
      for (const kind of KINDS)
        for (const file of [mrcOf, xmlOf]) {
          const a = await readFile(file(generated, domain, kind));
          const b = await readFile(file(again, domain, kind));
          expect(b.equals(a), `${domain} ${kind}`).toBe(true);
        }
  }, 120_000);

  it("a one-work rename rewrites only the MARC files that hold the work", async () => {
    const content = path.join(dir, "rename", "content");
    await cp(generatedContentDir, content, { recursive: true });
    const out = path.join(dir, "rename", "out");
    await buildFixture(content, out);
    const domains = await domainsOf(out);
    const files = domains.flatMap((domain) =>
      KINDS.flatMap((kind) => [mrcOf(out, domain, kind), xmlOf(out, domain, kind)]),
    );
    const holds = new Map<string, Set<string>>();
    for (const domain of domains)
      for (const kind of KINDS) {
        const ids = new Set(readIso2709(await readFile(mrcOf(out, domain, kind))).map(id001));
        holds.set(mrcOf(out, domain, kind), ids);
        holds.set(xmlOf(out, domain, kind), ids);
      }
    // A work in one domain's full set and in one other set (an up or a down) at most.
    const counts = new Map<string, number>();
    for (const ids of holds.values())
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    const target = [...counts].find(([, n]) => n === 2)?.[0] ?? [...counts.keys()][0]!;
    const id = target.slice("catav".length);
    const before = new Map<string, number>();
    for (const file of files) before.set(file, (await stat(file)).ino);

    const worksCsv = path.join(content, "audiovisuals.csv");
    const lines = (await readFile(worksCsv, "utf8")).split("\n");
    const at = lines.findIndex((line) => line.startsWith(`${id},`));
    expect(at).toBeGreaterThan(0);
    lines[at] = lines[at]!.replace(/^(\d+),("(?:[^"]|"")*"|[^,]*)/, "$1,Un título nuevo");
    await writeFile(worksCsv, lines.join("\n"));
    await buildFixture(content, out);

    let rewritten = 0;
    for (const file of files) {
      const changed = (await stat(file)).ino !== before.get(file);
      expect(changed, path.relative(out, file)).toBe(holds.get(file)!.has(target));
      if (changed) {
        rewritten++;
        const records = readIso2709(await readFile(file.replace(/\.xml$/, ".mrc")));
        const record = records.find((r) => id001(r) === target)!;
        expect(subfields(record, "245")?.[0]?.value).toBe("Un título nuevo.");
      }
    }
    expect(rewritten).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
