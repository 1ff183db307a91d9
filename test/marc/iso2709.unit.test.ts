import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iso2709, iso2709Chunks, iso2709Leader } from "../../src/marc/iso2709.ts";
import type { Field, MarcRecord } from "../../src/marc/record.ts";
import { readIso2709, type ReadField } from "./iso2709-reader.ts";

const LEADER = "00000ngm a22000003i 4500";
const record = (...fields: Field[]): MarcRecord => ({ leader: LEADER, fields });
const datafield = (tag: string, ind: string, ...pairs: [string, string][]): Field => ({
  tag,
  ind1: ind[0]!,
  ind2: ind[1]!,
  subfields: pairs.map(([code, value]) => ({ code, value })),
});

/** What a reader should find in a field: its text without what XML forbids and the noncharacters (written here, not taken from src/). */
function expected(field: Field): ReadField {
  const keep = (text: string) =>
    Array.from(text)
      .filter((c) => {
        const code = c.codePointAt(0)!;
        const loneSurrogate = c.length === 1 && code >= 0xd800 && code <= 0xdfff;
        const noncharacter = (code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe;
        return (
          !loneSurrogate &&
          !noncharacter &&
          (code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d)
        );
      })
      .join("");
  return "value" in field
    ? { tag: field.tag, value: keep(field.value) }
    : {
        tag: field.tag,
        ind1: field.ind1,
        ind2: field.ind2,
        subfields: field.subfields.map(({ code, value }) => ({ code, value: keep(value) })),
      };
}

describe("ISO 2709", () => {
  it("writes the leader, the directory and the fields with every length in bytes", () => {
    const bytes = iso2709(record({ tag: "001", value: "x1" }, datafield("245", "10", ["a", "Né"])));
    // 001: "x1" + terminator = 3 bytes at 0; 245: "10", delimiter, "a", "Né" (4 bytes), terminator = 8 bytes at 3.
    // Base address: 24 + 2 × 12 + 1 = 49; record: 49 + 3 + 8 + 1 (record terminator) = 61 bytes.
    const text =
      "00061ngm a22000493i 4500" +
      "001000300000" +
      "245000800003" +
      "\x1e" +
      "x1\x1e" +
      "10\x1faNé\x1e" +
      "\x1d";
    expect(Buffer.from(bytes)).toEqual(Buffer.from(text, "utf8"));
    expect(bytes.length).toBe(61);
  });

  it("counts combining marks and four-byte characters in bytes, as an independent reader finds them", () => {
    const title = "Ame\u0301lie 𝕸𝖆𝖙𝖗𝖎𝖝 🎬 𠜎";
    const fields = [
      { tag: "001", value: "catav1" },
      datafield("245", "00", ["a", title]),
      datafield("520", "  ", ["a", "ñ".repeat(3000)]),
    ];
    const bytes = iso2709(record(...fields));
    const [read] = readIso2709(bytes);
    expect(read!.fields).toEqual(fields.map(expected));
    // 245: 2 indicators + delimiter + code + title + terminator; the title's bytes, not its length in UTF-16 units.
    expect(
      Number(
        Buffer.from(bytes)
          .toString("latin1")
          .slice(24 + 12 + 3, 24 + 12 + 7),
      ),
    ).toBe(4 + Buffer.byteLength(title) + 1);
    expect(Buffer.byteLength(title)).not.toBe(title.length);
    expect(read!.leader.slice(0, 5)).toBe(String(bytes.length).padStart(5, "0"));
  });

  it("drops what XML cannot hold, ISO 2709's own separators among them, and the noncharacters", () => {
    const [read] = readIso2709(
      iso2709(
        record(
          datafield("245", "00", [
            "a",
            "a\x1eb\x1fc\x1dd\x00e\uffffé\ud800f\t\ufdd0g\u{10ffff}h\u{10fffd}",
          ]),
        ),
      ),
    );
    expect(read!.fields).toEqual([
      {
        tag: "245",
        ind1: "0",
        ind2: "0",
        subfields: [{ code: "a", value: "abcdeéf\tgh\u{10fffd}" }],
      },
    ]);
  });

  it("refuses a malformed leader, tag, indicator or subfield code (the mapping's bug)", () => {
    expect(() => iso2709({ leader: "short", fields: [] })).toThrow(/leader/);
    expect(() => iso2709(record({ tag: "24", value: "x" }))).toThrow(/tag/);
    expect(() => iso2709(record(datafield("001", "  ", ["a", "x"])))).toThrow(/control fields/);
    expect(() => iso2709(record({ tag: "245", value: "x" }))).toThrow(/control fields/);
    expect(() => iso2709(record(datafield("245", "A0", ["a", "x"])))).toThrow(/indicators/);
    expect(() => iso2709(record(datafield("245", "00", ["$", "x"])))).toThrow(/subfield code/);
    expect(() => iso2709(record(datafield("245", "00")))).toThrow(/no subfield/);
  });

  it("asserts the limits: a field up to 9,999 bytes, a record up to 99,999", () => {
    const field = (bytes: number) => datafield("520", "  ", ["a", "x".repeat(bytes - 5)]);
    expect(() => iso2709(record(field(9_999)))).not.toThrow();
    expect(() => iso2709(record(field(10_000)))).toThrow(
      /520 is 10000 bytes, over ISO 2709's 9999/,
    );
    expect(() => iso2709Leader(record(field(10_000)))).toThrow(/over ISO 2709's 9999/);
    // 24 + 10 × 12 + 1 + 10 × 9,999 + 1 = 100,136 bytes.
    const ten = Array.from({ length: 10 }, () => field(9_999));
    expect(() => iso2709(record(...ten))).toThrow(/record is 100136 bytes, over ISO 2709's 99999/);
    expect(iso2709(record(...ten.slice(0, 9))).length).toBeLessThanOrEqual(99_999);
  });

  it("gives the leader the file has (for MARCXML)", () => {
    const one = record({ tag: "001", value: "x1" }, datafield("245", "10", ["a", "Né"]));
    expect(iso2709Leader(one)).toBe(Buffer.from(iso2709(one)).toString("latin1", 0, 24));
  });

  it("writes a file in chunks that are the records one after the other, none split", () => {
    const records = Array.from({ length: 300 }, (_, i) =>
      record(
        { tag: "001", value: `catav${i}` },
        datafield("245", "00", ["a", `Título ${"ñ".repeat(i * 3)}`]),
      ),
    );
    const chunks = [...iso2709Chunks(records, 4096)];
    expect(chunks.length).toBeGreaterThan(10);
    expect(Buffer.concat(chunks).equals(Buffer.concat(records.map(iso2709)))).toBe(true);
    for (const chunk of chunks) expect(readIso2709(chunk).length).toBeGreaterThan(0);
    expect([...iso2709Chunks([])]).toEqual([]);
  });

  it("reads back as written for any text, tags and indicators (property)", () => {
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({ unit: anyUnit, maxLength: 40 }),
      fc.string({ unit: "grapheme-composite", maxLength: 20 }),
    );
    const indicator = fc.constantFrom(" ", "0", "1", "7", "a", "z");
    const control = fc.record({
      tag: fc.integer({ min: 1, max: 9 }).map((n) => `00${n}`),
      value: text,
    });
    const data = fc.record({
      tag: fc.integer({ min: 10, max: 999 }).map((n) => String(n).padStart(3, "0")),
      ind1: indicator,
      ind2: indicator,
      subfields: fc.array(
        fc.record({ code: fc.constantFrom(..."abcdexyz0123456789"), value: text }),
        { minLength: 1, maxLength: 5 },
      ),
    });
    fc.assert(
      fc.property(
        fc.array(control, { maxLength: 3 }),
        fc.array(data, { maxLength: 12 }),
        (controls, datas) => {
          const written: MarcRecord = { leader: LEADER, fields: [...controls, ...datas] };
          const [read] = readIso2709(iso2709(written));
          expect(read!.fields).toEqual(written.fields.map(expected));
          expect(read!.leader.slice(5, 12) + read!.leader.slice(17)).toBe(
            LEADER.slice(5, 12) + LEADER.slice(17),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
