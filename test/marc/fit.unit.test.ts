import { describe, expect, it } from "vitest";
import { data } from "../../src/marc/fields.ts";
import { cutAtWord, cutSynopsis, fitField, fitRecord } from "../../src/marc/fit.ts";
import { iso2709FieldBytes } from "../../src/marc/iso2709.ts";

const bytes = (text: string) => Buffer.byteLength(text);

describe("cutAtWord", () => {
  it("keeps a text that fits, and cuts one that does not after the last whole word within the bytes", () => {
    expect(cutAtWord("el sur", 6, "es")).toBe("el sur");
    expect(cutAtWord("el espíritu de la colmena", 14, "es")).toBe("el espíritu"); // "el espíritu de" is 15 bytes
    expect(cutAtWord("el espíritu de la colmena", 15, "es")).toBe("el espíritu de");
  });

  it("does not end on white space, a comma, a dash or an opening mark", () => {
    expect(cutAtWord("uno, dos, tres", 9, "es")).toBe("uno, dos");
    expect(cutAtWord("uno — «dos» tres", 12, "es")).toBe("uno");
  });

  it("cuts a text without spaces between words where the language's rules put them", () => {
    const japanese = "私はガラスを食べられます。それは私を傷つけません。";
    const cut = cutAtWord(japanese, 30, "ja");
    expect(bytes(cut)).toBeLessThanOrEqual(30);
    expect(cut.length).toBeGreaterThan(3);
    expect(japanese.startsWith(cut)).toBe(true);
    const words = [...new Intl.Segmenter("ja", { granularity: "word" }).segment(japanese)].map(
      (s) => s.index,
    );
    expect(words).toContain(cut.length);
  });

  it("cuts one word too long for the bytes between characters, never inside one", () => {
    const word = "e\u0301".repeat(10) + "🎬".repeat(10); // each é 3 bytes (base + combining mark), each 🎬 4
    const cut = cutAtWord(word, 16, "es");
    expect(cut).toBe("e\u0301".repeat(5));
    expect(cutAtWord("🎬🎬🎬", 9, "es")).toBe("🎬🎬");
    expect(cutAtWord("🎬", 3, "es")).toBe("");
  });
});

describe("fitField and cutSynopsis", () => {
  it("leaves a field that fits as it is", () => {
    const field = data("245", "00", "a", "El sur.");
    expect(fitField(field, "es")).toBe(field);
  });

  it("cuts the longest subfield of a field over 9,999 bytes, with an ellipsis; leaves out a link instead", () => {
    const field = data("246", "1 ", "i", "Título en catalán:", "a", "paraula ".repeat(2000));
    const fitted = fitField(field, "ca")!;
    expect(iso2709FieldBytes(fitted)).toBeLessThanOrEqual(9_999);
    expect(iso2709FieldBytes(fitted)).toBeGreaterThan(9_980);
    expect(fitted.subfields[0]!.value).toBe("Título en catalán:");
    expect(fitted.subfields[1]!.value).toMatch(/^(paraula )+paraula…$/);
    expect(
      fitField(data("856", "40", "u", `https://e.example/${"x".repeat(10_000)}`), "es", null),
    ).toBeNull();
  });

  it("ends a cut synopsis with the note in brackets, and gives none when not even a word fits", () => {
    const field = data("520", "  ", "a", "palabra ".repeat(3000));
    const cut = cutSynopsis(field, 200, "sinopsis abreviada", "es")!;
    expect(iso2709FieldBytes(cut)).toBeLessThanOrEqual(200);
    expect(cut.subfields[0]!.value).toMatch(/^(palabra )+palabra… \[sinopsis abreviada\]\.$/);
    expect(cutSynopsis(field, 30, "sinopsis abreviada", "es")).toBeNull();
  });
});

describe("fitRecord", () => {
  const big = (tag: string, size: number) => data(tag, "  ", "a", "x ".repeat(size / 2 - 3) + "xx");

  it("cuts the synopsis first, then drops directors from the last, and says the record was shortened", () => {
    const fields = [
      data("245", "00", "a", "El sur."),
      big("520", 9_000),
      ...Array.from({ length: 12 }, () => big("700", 9_000)),
    ];
    const { fields: fitted, shortened } = fitRecord(fields, 100, "sinopsis abreviada", "es");
    const total = 100 + 24 + 2 + fitted.reduce((n, f) => n + 12 + iso2709FieldBytes(f), 0);
    expect(shortened).toBe(true);
    expect(total).toBeLessThanOrEqual(99_999);
    expect(fitted.filter((f) => f.tag === "520")).toEqual([]); // no room left for it beside eleven directors
    expect(fitted.filter((f) => f.tag === "700").length).toBe(11);
  });

  it("leaves a record that fits as it is", () => {
    const fields = [data("245", "00", "a", "El sur."), big("520", 9_000)];
    expect(fitRecord(fields, 100, "sinopsis abreviada", "es")).toEqual({
      fields,
      shortened: false,
    });
  });
});
