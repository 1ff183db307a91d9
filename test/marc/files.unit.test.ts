import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MarcFiles, writeMarcFiles } from "../../src/marc/record-files.ts";
import { iso2709Chunks } from "../../src/marc/iso2709.ts";
import { marcRecords } from "../../src/marc/map.ts";
import { marcxml } from "../../src/marc/marcxml.ts";
import { isShared, type Field, type MarcRecord } from "../../src/marc/record.ts";
import { readIso2709 } from "./iso2709-reader.ts";
import { DOMAIN, SHAPES, generatedWorks } from "./works.ts";

describe("writeMarcFiles", () => {
  const works = [...Object.values(SHAPES), ...generatedWorks(300)];

  it("writes both files in one pass, each as its own writer does, records made once", () => {
    const iso: Uint8Array[] = [];
    const xml: Uint8Array[] = [];
    let made = 0;
    const records = (function* () {
      for (const record of marcRecords(works, DOMAIN)) {
        made++;
        yield record;
      }
    })();
    const count = writeMarcFiles(
      records,
      { iso2709: (chunk) => iso.push(chunk), marcxml: (chunk) => xml.push(chunk) },
      16 * 1024,
    );
    expect(count).toBe(works.length);
    expect(made).toBe(works.length);
    expect(iso.length).toBeGreaterThan(5);
    expect(xml.length).toBeGreaterThan(5);
    expect(
      Buffer.concat(iso).equals(Buffer.concat([...iso2709Chunks(marcRecords(works, DOMAIN))])),
    ).toBe(true);
    expect(Buffer.concat(xml).toString("utf8")).toBe(marcxml(marcRecords(works, DOMAIN)));
    expect(readIso2709(Buffer.concat(iso))).toHaveLength(works.length);
  });

  it("writes the same files when each chunk's buffer is filled again two chunks later", () => {
    // A writer thread's job writes each chunk before the next is made, and reuses their buffers.
    const collect = (reuse: boolean) => {
      const files = { iso2709: [] as Buffer[], marcxml: [] as Buffer[] };
      // The memory each chunk is a view of: its buffer and where in it (small buffers may share a pool).
      const regions = new Map<ArrayBufferLike, Set<number>>();
      const sink = (file: keyof typeof files) => (chunk: Uint8Array) => {
        regions.set(chunk.buffer, (regions.get(chunk.buffer) ?? new Set()).add(chunk.byteOffset));
        files[file].push(Buffer.from(chunk)); // copied at once, as a write would
      };
      const written = new MarcFiles(
        { iso2709: sink("iso2709"), marcxml: sink("marcxml") },
        { chunkBytes: 8 * 1024, reuse },
      );
      for (const record of marcRecords(works, DOMAIN)) written.add(record);
      written.end();
      const buffers = [...regions.values()].reduce((count, offsets) => count + offsets.size, 0);
      return { iso: Buffer.concat(files.iso2709), xml: Buffer.concat(files.marcxml), buffers };
    };
    const fresh = collect(false);
    const reused = collect(true);
    expect(reused.iso.equals(fresh.iso)).toBe(true);
    expect(reused.xml.equals(fresh.xml)).toBe(true);
    expect(readIso2709(reused.iso)).toHaveLength(works.length);
    // Two buffers a file, and one more for each record larger than a chunk (SHAPES has some).
    expect(fresh.buffers).toBeGreaterThan(100);
    expect(reused.buffers).toBeLessThan(20);
  });

  it("copies a shared field's bytes into each record that holds it, as it would write them", () => {
    const mapped = [...marcRecords(works, DOMAIN)];
    // The mapping shares the fields a catalogue repeats (RDA types, years, genres, directors).
    const rda = mapped.map((record) => record.fields.find((field) => field.tag === "336")!);
    expect(new Set(rda).size).toBe(1);
    expect(isShared(rda[0]!)).toBe(true);
    expect(mapped.flatMap((record) => record.fields).filter(isShared).length).toBeGreaterThan(
      5 * works.length,
    );
    // The same records with every field a copy of its own: nothing shared, all written anew.
    const unshared = mapped.map((record): MarcRecord => ({
      leader: record.leader,
      fields: record.fields.map((field) => ({ ...field })),
    }));
    const write = (records: MarcRecord[]) => {
      const files = { iso2709: [] as Buffer[], marcxml: [] as Buffer[] };
      const written = new MarcFiles(
        {
          iso2709: (chunk) => files.iso2709.push(Buffer.from(chunk)),
          marcxml: (chunk) => files.marcxml.push(Buffer.from(chunk)),
        },
        { chunkBytes: 4 * 1024, reuse: true },
      );
      for (const record of records) written.add(record);
      written.end();
      return { iso: Buffer.concat(files.iso2709), xml: Buffer.concat(files.marcxml) };
    };
    const copied = write(mapped);
    const anew = write(unshared);
    expect(copied.iso.equals(anew.iso)).toBe(true);
    expect(copied.xml.equals(anew.xml)).toBe(true);
    expect(copied.xml.toString("utf8")).toBe(marcxml(unshared));
  });

  it("writes MARCXML from the ISO 2709 bytes as from the fields, for any text (property)", () => {
    // Markup, a carriage return, what XML cannot hold, lone surrogates, 4-byte characters.
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({ unit: anyUnit, maxLength: 40 }),
      fc.constantFrom(
        '<a href="x">&amp;</a>',
        "a\rb\r\n",
        "\u001f\u001e\u001d",
        "𝕸é",
        // Values long enough to be copied whole when they need no escape.
        `${"Été ".repeat(20)}<fin>`,
        "Été ".repeat(20),
      ),
    );
    const control = fc.record({ tag: fc.constantFrom("001", "003", "008"), value: text });
    const data = fc.record({
      tag: fc.constantFrom("245", "520", "700", "856"),
      ind1: fc.constantFrom(" ", "1", "a"),
      ind2: fc.constantFrom(" ", "0", "9"),
      subfields: fc.array(fc.record({ code: fc.constantFrom("a", "b", "4", "z"), value: text }), {
        minLength: 1,
        maxLength: 5,
      }),
    });
    const record = fc
      .tuple(
        fc.constantFrom("00000ngm a22000003i 4500", "00000dgm a2200000 a 4500"),
        fc.array(control, { maxLength: 3 }),
        fc.array(data, { maxLength: 6 }),
      )
      .map(([leader, controls, datas]): MarcRecord => ({
        leader,
        fields: [...controls, ...datas] as Field[],
      }));
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 6 }),
        fc.integer({ min: 1, max: 4096 }),
        (records, chunkBytes) => {
          const xml: Uint8Array[] = [];
          writeMarcFiles(
            records,
            { iso2709: () => {}, marcxml: (chunk) => xml.push(chunk) },
            chunkBytes,
          );
          expect(Buffer.concat(xml).toString("utf8")).toBe(marcxml(records));
        },
      ),
    );
  });

  it("writes an empty collection and no ISO 2709 bytes for no records", () => {
    const iso: Uint8Array[] = [];
    const xml: Uint8Array[] = [];
    expect(
      writeMarcFiles([], {
        iso2709: (chunk) => iso.push(chunk),
        marcxml: (chunk) => xml.push(chunk),
      }),
    ).toBe(0);
    expect(iso).toEqual([]);
    expect(Buffer.concat(xml).toString("utf8")).toBe(marcxml([]));
  });
});
