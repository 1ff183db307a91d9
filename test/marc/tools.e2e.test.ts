import { readFile } from "node:fs/promises";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marcMapper } from "../../src/marc/map.ts";
import type { Field, MarcRecord } from "../../src/marc/record.ts";
import { requireTool } from "../support/requires.ts";
import { perl, writeBoth, yaz, type PerlReading } from "./tools.ts";
import { DOMAIN, SHAPES, generatedWorks } from "./works.ts";

/**
 * The files as the library world's own tools read them: YAZ's yaz-marcdump, Perl's MARC::Record,
 * MARC::File::XML and MARC::Lint (each an implementation of ISO 2709 and MARCXML apart from ours).
 */

const hasYaz = requireTool("yaz-marcdump", "the MARC files' tests with YAZ") !== null;
const hasPerl = ["marcdump", "xml2marc", "marclint"]
  .map((tool) => requireTool(tool, "the MARC files' tests with Perl's MARC modules"))
  .every((found) => found !== null);

const map = marcMapper(DOMAIN);
const shapes: MarcRecord[] = [
  ...Object.values(SHAPES).map((work) => map(work)),
  map(SHAPES.full, "deleted"),
  map(SHAPES.everyLanguage, "deleted"),
];
const works = generatedWorks(1000);
const generated: MarcRecord[] = works.map((work, i) => map(work, i % 10 === 0 ? "deleted" : "new"));

/** Records of random tags, indicators and text (any code point, lone surrogates, separators). */
function randomRecords(count: number): MarcRecord[] {
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
      maxLength: 30,
    }),
  );
  const field = fc.oneof(
    // Never empty (as the mapping's are): yaz-marcdump misreads an empty control field.
    fc.record({
      tag: fc.constantFrom("001", "005", "008"),
      value: text.map((value) => `x${value}`),
    }),
    fc.record({
      tag: fc.integer({ min: 10, max: 999 }).map((n) => String(n).padStart(3, "0")),
      ind1: fc.constantFrom(" ", "0", "1"),
      ind2: fc.constantFrom(" ", "4", "7"),
      subfields: fc.array(fc.record({ code: fc.constantFrom("a", "b", "z", "2"), value: text }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  );
  const sortedFields = fc
    .array(field, { minLength: 1, maxLength: 15 })
    .map((fields: Field[]) =>
      [...fields].sort((a, b) => Number("value" in b) - Number("value" in a)),
    );
  return fc
    .sample(sortedFields, { numRuns: count, seed: 41 })
    .map((fields) => ({ leader: "00000nam a2200000 i 4500", fields }));
}
const random = randomRecords(300);

const sets = { shapes, generated, random };
type SetName = keyof typeof sets;
const files = {} as Record<SetName, Awaited<ReturnType<typeof writeBoth>>>;
beforeAll(async () => {
  for (const name of Object.keys(sets) as SetName[]) files[name] = await writeBoth(sets[name]);
});
afterAll(async () => {
  await Promise.all(Object.values(files).map((file) => file.cleanup()));
});

/** A record as yaz-marcdump's line format prints it, ended by an empty line. */
const asLines = (record: MarcRecord, leader: string) =>
  [
    leader,
    ...record.fields.map((field) =>
      "value" in field
        ? `${field.tag} ${field.value}`
        : `${field.tag} ${field.ind1}${field.ind2} ${field.subfields.map(({ code, value }) => `$${code} ${value}`).join(" ")}`,
    ),
    "",
  ].join("\n");

describe.runIf(hasYaz)("yaz-marcdump", () => {
  it.each(Object.keys(sets) as SetName[])(
    "reads the %s' ISO 2709 file without a diagnostic and writes it again to the same bytes",
    async (name) => {
      const { mrc } = files[name];
      const dump = await yaz(mrc, "marc", "line");
      expect(dump.stderr).toBe("");
      // yaz-marcdump prints what it finds wrong in a record as a line in parentheses.
      expect(dump.text.split("\n").filter((line) => line.startsWith("("))).toEqual([]);
      expect(dump.text.match(/^\d{5}[a-z ]/gm)?.length).toBe(sets[name].length);
      expect((await yaz(mrc, "marc", "marc")).bytes.equals(await readFile(mrc))).toBe(true);
    },
  );

  it.each(Object.keys(sets) as SetName[])(
    "reads the %s' MARCXML into the same records as the ISO 2709 file",
    async (name) => {
      const { mrc, xml } = files[name];
      expect((await yaz(xml, "marcxml", "line")).text).toBe((await yaz(mrc, "marc", "line")).text);
      expect((await yaz(xml, "marcxml", "marc")).bytes.equals(await readFile(mrc))).toBe(true);
    },
  );

  it("reads the row shapes field by field as the mapping made them, deletes with the 001 of the record they delete", async () => {
    const text = (await yaz(files.shapes.mrc, "marc", "line")).text;
    const leaders = text.match(/^\d{5}.{19}$/gm)!;
    expect(text).toBe(shapes.map((record, i) => asLines(record, leaders[i]!)).join("\n") + "\n");
    const deletes = text.split("\n\n").filter((record) => record[5] === "d");
    expect(deletes.map((record) => record.split("\n")[1])).toEqual([
      "001 catav101",
      "001 catav106",
    ]);
  });
});

describe.runIf(hasPerl)("Perl's MARC::Record, MARC::File::XML and MARC::Lint", () => {
  const readings = {} as Record<SetName, PerlReading>;
  beforeAll(async () => {
    for (const name of Object.keys(sets) as SetName[])
      readings[name] = await perl(files[name].mrc, files[name].xml, name === "shapes");
  });

  it.each(Object.keys(sets) as SetName[])(
    "decode the %s without a warning, write each record again to its bytes, and read the MARCXML into the same records",
    (name) => {
      const reading = readings[name];
      expect(reading.records).toHaveLength(sets[name].length);
      expect(reading.decoding).toEqual({});
      expect(reading.rewritten).toEqual([]);
      expect(reading.xml).toEqual([]);
    },
  );

  it("read the row shapes' fields as the mapping made them", () => {
    const ours = shapes.map((record) =>
      record.fields.map((f) =>
        "value" in f
          ? [f.tag, f.value]
          : [f.tag, f.ind1, f.ind2, ...f.subfields.map((s) => [s.code, s.value])],
      ),
    );
    expect(readings.shapes.fields).toEqual(ours);
  });

  it("find nothing wrong with the row shapes (MARC::Lint)", () => {
    expect(readings.shapes.lint).toEqual({});
  });

  it("find in a generated catalogue only the initial-article advice docs/exports.md explains", () => {
    const titles = new Map(
      generated.map((record) => [
        record.fields[0]!.tag === "001" && "value" in record.fields[0]!
          ? record.fields[0].value
          : "",
        record,
      ]),
    );
    const unexplained: string[] = [];
    for (const [id, warnings] of Object.entries(readings.generated.lint)) {
      const title = titles.get(id)!.fields.find((f) => f.tag === "245")!;
      if (!("subfields" in title)) throw new Error("245 is a data field");
      for (const warning of warnings) {
        // Our count is 0 where the title's language is not known (MARC::Lint guesses from a word list),
        const unknownLanguage =
          title.ind2 === "0" &&
          /^245: First word, \S+, may be an article, check 2nd indicator \(0\)\.$/.test(warning);
        // or counts an opening mark MARC::Lint does not know (« “ ¿ ¡) before an article.
        const openingMark =
          /^[«“‘¿¡]/.test(title.subfields[0]!.value) &&
          /does not appear to be an article/.test(warning);
        if (!unknownLanguage && !openingMark) unexplained.push(`${id}: ${warning}`);
      }
    }
    expect(unexplained).toEqual([]);
    // And most records draw no advice at all.
    expect(Object.keys(readings.generated.lint).length).toBeLessThan(generated.length / 3);
  });
});
