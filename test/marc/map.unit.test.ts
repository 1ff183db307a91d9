import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iso2709 } from "../../src/marc/iso2709.ts";
import { DEFAULT_LABELS } from "../../src/marc/record-labels.ts";
import {
  controlNumber,
  marcMapper,
  marcRecord,
  marcRecords,
  type MarcWork,
} from "../../src/marc/map.ts";
import { marcxml } from "../../src/marc/marcxml.ts";
import { isMarcOrgCode } from "../../src/util/marc-org-code.ts";
import { checkStructure, withoutForbidden, type MarcRecord } from "../../src/marc/record.ts";
import { DOMAIN, LONG_TITLE, SHAPES, generatedWorks } from "./works.ts";

/** A record as lines, the way yaz-marcdump prints them: `LDR …`, `001 value`, `245 03 $a …`. */
function lines(record: MarcRecord): string[] {
  return [
    `LDR ${record.leader}`,
    ...record.fields.map((field) =>
      "value" in field
        ? `${field.tag} ${field.value}`
        : `${field.tag} ${field.ind1}${field.ind2} ${field.subfields.map(({ code, value }) => `$${code} ${value}`).join(" ")}`,
    ),
  ];
}

const map = marcMapper(DOMAIN);
const tagged = (record: MarcRecord, tag: string) =>
  lines(record).filter((line) => line.startsWith(`${tag} `));
const RDA = [
  "336    $a two-dimensional moving image $b tdi $2 rdacontent",
  "337    $a computer $b c $2 rdamedia",
  "338    $a online resource $b cr $2 rdacarrier",
];
const HEAD = ["003 SpMaBN", "005 20261120000000.0", "007 cr unu---uuuuu", "007 vz uzuuzu"];

describe("a work as a MARC record", () => {
  it("maps every column of a full row, field by field", () => {
    expect(lines(map(SHAPES.full))).toEqual([
      "LDR 00000ngm a22000003i 4500",
      "001 catav101",
      ...HEAD,
      // Entered 2026-01-05 (available from), one date 1902, France, 14 minutes, online videorecording, no spoken language.
      "008 260105s1902    fr 014       |o   vuzxx d",
      "041    $a zxx $j spa $j eng",
      "245 03 $a El viaje a la Luna.",
      "246 1  $i Título en inglés: $a A Trip to the Moon",
      "246 1  $i Título en francés: $a Le Voyage dans la Lune",
      "264  1 $a [Place of publication not identified] : $b [publisher not identified], $c [1902]",
      "300    $a 1 online resource (14 min.)",
      ...RDA,
      "520    $a Un grupo de astrónomos viaja a la Luna en una cápsula disparada por un cañón.",
      "521 8  $a Calificación por edades: TP.",
      "546    $a Subtítulos en español e inglés.",
      "655  7 $a Cortometrajes. $2 local",
      "700 1  $a Méliès, Georges, $d 1861-1938, $e director. $4 drt",
      "856 40 $u https://biblioteca.example/ver/101/el-viaje-a-la-luna $y Ver o pedir en préstamo",
    ]);
  });

  it("leaves out every field the catalogue has nothing for, and invents nothing", () => {
    const record = map(SHAPES.minimal);
    expect(lines(record)).toEqual([
      "LDR 00000ngm a22000003i 4500",
      "001 catav7",
      ...HEAD,
      // Entered the build date; dates unknown (n, uuuu uuuu); place unknown (xx); running time unknown (---); no language.
      "008 261120nuuuuuuuuxx ---       |o   vu    d",
      "245 00 $a Sin datos.",
      "300    $a 1 online resource",
      ...RDA,
    ]);
    expect(
      lines(marcRecord(SHAPES.minimal, { buildDate: "2026-11-20", language: "es" })),
    ).not.toContain("003 SpMaBN");
  });

  it("has no 700 without a director, one 700 for each of two, first indicator from the heading's form", () => {
    expect(tagged(map(SHAPES.noDirector), "700")).toEqual([]);
    expect(tagged(map(SHAPES.twoDirectors), "700")).toEqual([
      "700 1  $a Buñuel, Luis $d (1900-1983), $e director. $4 drt",
      "700 0  $a Luis Alcoriza, $e director. $4 drt",
    ]);
    // An open date ends without a comma before the relator.
    expect(tagged(map(SHAPES.noYear), "700")).toEqual([
      "700 1  $a Almodóvar, Pedro, $d 1949- $e director. $4 drt",
    ]);
    // The same director twice is one added entry.
    expect(
      tagged(
        map({ id: 1, title: "X", directors: [{ name: "Agnès Varda" }, { name: "Agnès Varda" }] }),
        "700",
      ),
    ).toEqual(["700 0  $a Agnès Varda, $e director. $4 drt"]);
  });

  it("without a year: no 264, date type n in 008; with the title's own final mark and a period", () => {
    const record = map(SHAPES.noYear);
    expect(tagged(record, "264")).toEqual([]);
    expect(tagged(record, "008")).toEqual(["008 261120nuuuuuuuuxx 101       |o   vu    d"]);
    expect(tagged(record, "245")).toEqual(["245 00 $a ¿Qué he hecho yo para merecer esto?."]);
  });

  it("without a synopsis: no 520; the title's language given counts the elided article", () => {
    const record = map(SHAPES.noSynopsis);
    expect(tagged(record, "520")).toEqual([]);
    expect(tagged(record, "245")).toEqual(["245 02 $a L'Atalante."]);
    expect(tagged(record, "546")).toEqual(["546    $a Audio en francés."]);
  });

  it("carries every language column: 041, 008's language, 246 for each title that differs, 546 named in the domain's language", () => {
    const record = map(SHAPES.everyLanguage);
    expect(tagged(record, "008")).toEqual(["008 261120s1999    sp 096       |o   vuspa d"]);
    expect(tagged(record, "041")).toEqual([
      "041    $a spa $a glg $a baq $a cat $a eng $a fre $j spa $j eng $j cat $j glg $j baq $j fre $j sgn",
    ]);
    expect(tagged(record, "245")).toEqual(["245 03 $a La lengua de las mariposas."]);
    // The Valencian title is the Catalan one: one 246.
    expect(tagged(record, "246")).toEqual([
      "246 1  $i Título en inglés: $a Butterfly's Tongue",
      "246 1  $i Título en catalán: $a La llengua de les papallones",
      "246 1  $i Título en gallego: $a A lingua das bolboretas",
      "246 1  $i Título en euskera: $a Tximeleten mihia",
      "246 1  $i Título en francés: $a La Langue des papillons",
    ]);
    expect(tagged(record, "546")).toEqual([
      "546    $a Audio en español, gallego, euskera, catalán, valenciano, inglés y francés. Subtítulos en español, inglés, catalán, gallego, euskera, valenciano, francés y lengua de signos española.",
    ]);
  });

  it("writes titles with combining marks and four-byte characters as they are", () => {
    const combining = map(SHAPES.combining);
    expect(tagged(combining, "245")).toEqual([
      "245 03 $a Le Fabuleux Destin d'Ame\u0301lie Poulain.",
    ]);
    expect(tagged(combining, "246")).toEqual([
      "246 1  $i Título en español: $a Pequen\u0303a Ame\u0301lie",
    ]);
    expect(tagged(combining, "008")).toEqual(["008 261120s2001    fr ---       |o   vufre d"]);
    const astral = map(SHAPES.astral);
    expect(tagged(astral, "245")).toEqual(["245 00 $a 𝕿𝖍𝖊 𝖒𝖆𝖙𝖗𝖎𝖝 🎬 𠜎𠜱."]);
    expect(tagged(astral, "041")).toEqual(["041    $a eng $a chi $j chi"]);
    expect(tagged(astral, "546")).toEqual([
      "546    $a Audio en inglés y cantonés. Subtítulos en chino tradicional.",
    ]);
  });

  it("keeps a 300-character title whole, and a running time over 999 minutes as 000", () => {
    const record = map(SHAPES.longTitle);
    expect(LONG_TITLE).toHaveLength(300);
    expect(tagged(record, "245")).toEqual([`245 00 $a ${LONG_TITLE}.`]);
    expect(tagged(record, "008")[0]!.slice(4 + 18, 4 + 21)).toBe("000");
    expect(tagged(record, "300")).toEqual(["300    $a 1 online resource (1500 min.)"]);
  });

  it("cuts a synopsis too long for a field at a word, with the note, and says so in 008/38", () => {
    const record = map(SHAPES.longSynopsis);
    const [synopsis] = tagged(record, "520");
    expect(synopsis).toMatch(
      /^520 {4}\$a la luz del canción mudo .* [a-zñó]+… \[sinopsis abreviada\]\.$/u,
    );
    const field = record.fields.find((f) => f.tag === "520")!;
    const bytes =
      "subfields" in field ? 2 + 2 + Buffer.byteLength(field.subfields[0]!.value) + 1 : 0;
    expect(bytes).toBeLessThanOrEqual(9_999);
    expect(bytes).toBeGreaterThan(9_900);
    // Cut after a whole word of the synopsis: what comes before the ellipsis starts the original text.
    const kept =
      "subfields" in field
        ? field.subfields[0]!.value.replace(/… \[sinopsis abreviada\]\.$/, "")
        : "";
    expect(SHAPES.longSynopsis.synopsis.startsWith(kept)).toBe(true);
    expect(SHAPES.longSynopsis.synopsis[kept.length]).toBe(" ");
    expect(tagged(record, "008")[0]!.slice(4 + 38, 4 + 39)).toBe("s");
    expect(tagged(map(SHAPES.full), "008")[0]!.slice(4 + 38, 4 + 39)).toBe(" ");
  });

  it("keeps a record of hundreds of long director headings under 99,999 bytes, dropping the last ones", () => {
    const directors = Array.from({ length: 40 }, (_, i) => ({
      name: `Director ${i} ${"ñ".repeat(1500)}`,
    }));
    const record = map({ ...SHAPES.longSynopsis, directors });
    const bytes = iso2709(record).length;
    expect(bytes).toBeLessThanOrEqual(99_999);
    expect(bytes).toBeGreaterThan(90_000);
    const kept = tagged(record, "700");
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(40);
    expect(kept[0]).toMatch(/^700 0 {2}\$a Director 0 ñ+, \$e director\. \$4 drt$/);
  });

  it("gives a deleted record the control number of the record it deletes, and status d", () => {
    const up = map(SHAPES.full);
    const down = map(SHAPES.full, "deleted");
    expect(down.leader[5]).toBe("d");
    expect(up.leader[5]).toBe("n");
    expect(tagged(down, "001")).toEqual(["001 catav101"]);
    expect(lines(down).slice(1)).toEqual(lines(up).slice(1));
    expect(controlNumber(101)).toBe("catav101");
    // The same number in every domain and build.
    expect(
      tagged(marcRecord(SHAPES.full, { buildDate: "2030-01-01", language: "eu" }), "001"),
    ).toEqual(["001 catav101"]);
  });

  it("writes the domain's texts in its language, the labels it is given over the defaults", () => {
    const basque = marcRecord(SHAPES.full, {
      buildDate: "2026-11-20",
      language: "eu",
      genreSource: "lemac",
    });
    expect(tagged(basque, "546")).toEqual(["546    $a Azpitituluak: gaztelania eta ingelesa."]);
    expect(tagged(basque, "655")).toEqual([
      "655  7 $a Cortometrajes. $2 local".replace("local", "lemac"),
    ]);
    expect(tagged(basque, "700")).toEqual([
      "700 1  $a Méliès, Georges, $d 1861-1938, $e zuzendaria. $4 drt",
    ]);
    const valencian = marcRecord(SHAPES.everyLanguage, {
      buildDate: "2026-11-20",
      language: "ca-ES-valencia",
    });
    expect(tagged(valencian, "856")).toEqual([
      `856 40 $u https://biblioteca.example/ver/106 $y ${DEFAULT_LABELS.va.watch}`,
    ]);
    expect(tagged(valencian, "546")[0]).toContain(
      "Àudio en espanyol, gallec, basc, català, valencià, anglès i francès.",
    );
    const own = marcRecord(SHAPES.full, {
      ...DOMAIN,
      labels: { watch: "Préstamo digital", languageNames: { en: "lengua inglesa" } },
    });
    expect(tagged(own, "856")).toEqual([
      "856 40 $u https://biblioteca.example/ver/101/el-viaje-a-la-luna $y Préstamo digital",
    ]);
    expect(tagged(own, "546")).toEqual(["546    $a Subtítulos en español y lengua inglesa."]);
    expect(tagged(own, "246")[0]).toBe("246 1  $i Título en lengua inglesa: $a A Trip to the Moon");
  });

  it("files initial articles only where the title's language is known or both candidates agree", () => {
    const article = (work: Partial<MarcWork>) =>
      tagged(marcRecord({ id: 1, title: "", ...work }, DOMAIN), "245")[0]!.slice(4, 6);
    expect(article({ title: "Los olvidados", audioLanguages: ["es"] })).toBe("04");
    expect(article({ title: "El sur" })).toBe("03"); // no audio language: the domain's
    expect(article({ title: "La haine", audioLanguages: ["fr"] })).toBe("03"); // an article in Spanish and French
    expect(article({ title: "The Others", audioLanguages: ["en"] })).toBe("00"); // English or Spanish? not known
    expect(article({ title: "The Others", titleLanguage: "en" })).toBe("04");
    expect(article({ title: "The Others", titles: { en: "The Others", es: "Los otros" } })).toBe(
      "04",
    );
    expect(article({ title: "La La Land", audioLanguages: ["en"] })).toBe("00");
    expect(article({ title: "A bout de souffle", audioLanguages: ["fr"] })).toBe("00");
    expect(article({ title: "Lo que el viento se llevó", audioLanguages: ["es"] })).toBe("00");
    expect(article({ title: "Los Angeles Plays Itself", audioLanguages: ["es"] })).toBe("00");
    expect(article({ title: '"The Others"', titleLanguage: "en" })).toBe("05");
    expect(article({ title: "«La Strada»", titleLanguage: "es" })).toBe("04");
    expect(article({ title: "L’Atalante", titleLanguage: "fr" })).toBe("02");
    expect(article({ title: "Tximeleten mihia", titleLanguage: "eu" })).toBe("00");
    expect(article({ title: "Elles", titleLanguage: "fr" })).toBe("00");
  });

  it("makes one 008 position per value the catalogue has, and the fill MARC prescribes for the rest", () => {
    const fixed = (work: Partial<MarcWork>) =>
      tagged(marcRecord({ id: 1, title: "X", ...work }, DOMAIN), "008")[0]!.slice(4);
    expect(fixed({ countries: ["PS", "xx", "GB"] }).slice(15, 18)).toBe("xxk"); // the first with a MARC code
    expect(fixed({ countries: ["PS"] }).slice(15, 18)).toBe("xx ");
    expect(fixed({ duration: 7 }).slice(18, 21)).toBe("007");
    expect(fixed({ duration: 0 }).slice(18, 21)).toBe("---");
    expect(fixed({ audioLanguages: ["x-private", "it"] }).slice(35, 38)).toBe("ita");
    expect(fixed({ availableFrom: "2024-02-29" }).slice(0, 6)).toBe("240229");
    expect(fixed({}).length).toBe(40);
  });

  it("cuts a title too long for a field with an ellipsis and the period 245 ends with", () => {
    const [title] = tagged(map({ id: 1, title: "palabra ".repeat(2000) }), "245");
    expect(title).toMatch(/^245 00 \$a (palabra )+palabra…\.$/);
    expect(Buffer.byteLength(title!) - "245 00 $a ".length + 5).toBeLessThanOrEqual(9_999);
    expect(
      tagged(map({ id: 1, title: "palabra ".repeat(2000) }), "008")[0]!.slice(4 + 38, 4 + 39),
    ).toBe("s");
  });

  it("takes a heading's dates after its last comma, approximate ones too", () => {
    expect(
      tagged(
        map({
          id: 1,
          title: "X",
          directors: [
            { name: "Segundo de Chomón", heading: "Chomón, Segundo de, approximately 1871-1929" },
          ],
        }),
        "700",
      ),
    ).toEqual(["700 1  $a Chomón, Segundo de, $d approximately 1871-1929, $e director. $4 drt"]);
  });

  it("keeps a link whole and out of a field it cannot fit, and the record's text on one line", () => {
    expect(
      tagged(
        map({ id: 1, title: "X", watchUrl: `https://e.example/${"a".repeat(10_000)}` }),
        "856",
      ),
    ).toEqual([]);
    expect(
      tagged(map({ id: 1, title: "X", watchUrl: "https://e.example/ver mas" }), "856")[0],
    ).toContain("$u https://e.example/ver%20mas ");
    expect(
      tagged(
        map({ id: 1, title: " Dos\tlíneas\r\nen\u2028un título\x1e ", synopsis: "Uno.\n\nDos." }),
        "245",
      ),
    ).toEqual(["245 00 $a Dos líneas en un título."]);
    expect(tagged(map({ id: 1, title: "X", synopsis: "Uno.\n\nDos" }), "520")).toEqual([
      "520    $a Uno. Dos.",
    ]);
    expect(() => map({ id: 1, title: " \n " })).toThrow(/no title/);
  });

  it("refuses a build date or organization code the domain should not have passed", () => {
    expect(() => marcMapper({ buildDate: "20-11-2026", language: "es" })).toThrow(/YYYY-MM-DD/);
    expect(() => marcMapper({ buildDate: "2026-11-20", language: "es", orgCode: "Sp Ma" })).toThrow(
      /organization code/,
    );
    expect(isMarcOrgCode("SpMaBN")).toBe(true);
    expect(isMarcOrgCode("CaOONL")).toBe(true);
    expect(isMarcOrgCode("DLC-X:1")).toBe(true);
    expect(isMarcOrgCode("")).toBe(false);
    expect(isMarcOrgCode("a\u001eb")).toBe(false);
  });

  it("gives the same bytes for the same input, every time and in a fresh mapper", () => {
    const works = [...Object.values(SHAPES), ...generatedWorks(200)];
    const once = Buffer.from(marcxml(marcRecords(works, DOMAIN)));
    const again = Buffer.from(
      marcxml(works.map((work) => marcMapper({ ...DOMAIN })(structuredClone(work)))),
    );
    expect(once.equals(again)).toBe(true);
    expect(
      Buffer.concat([...marcRecords(works, DOMAIN)].map(iso2709)).equals(
        Buffer.concat(works.map((w) => iso2709(map(w)))),
      ),
    ).toBe(true);
  });

  it("makes well-formed records with nothing XML forbids from any text and labels (property)", () => {
    // The serialisers trust the mapping's records (record.ts, madeClean): this holds them to it.
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.string({ unit: anyUnit, maxLength: 30 }),
      fc.constantFrom(
        "a\u0000b\u001f",
        "\ud800x\udfff",
        "\ufdd0\uffff",
        "\ud83f\udffe",
        "Méliès, G., 1861-1938",
      ),
    );
    const maybe = fc.option(text, { nil: null });
    const tags = fc.array(fc.oneof(text, fc.constantFrom("es", "en", "ca-valencia", "zxx")), {
      maxLength: 3,
    });
    const work = fc.record({
      id: fc.nat(),
      title: text,
      titles: fc.dictionary(fc.constantFrom("es", "en", "va", "x-y"), maybe),
      titleLanguage: maybe,
      year: fc.option(fc.integer({ min: -10, max: 30_000 }), { nil: null }),
      duration: fc.option(fc.double(), { nil: null }),
      synopsis: maybe,
      directors: fc.array(fc.record({ name: text, heading: maybe }), { maxLength: 3 }),
      category: maybe,
      ageRating: maybe,
      countries: tags,
      audioLanguages: tags,
      subtitleLanguages: tags,
      watchUrl: maybe,
      availableFrom: maybe,
    });
    const labels = fc.record(
      {
        audio: text,
        watch: text,
        director: text,
        titleIn: text,
        languageNames: fc.dictionary(fc.constantFrom("va", "es", "lse"), text),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        work,
        labels,
        fc.constantFrom("new", "deleted" as const),
        (work, labels, status) => {
          let record: MarcRecord;
          try {
            record = marcMapper({ ...DOMAIN, labels })(work, status);
          } catch (error) {
            // A title that text() empties is refused, as a work without a title.
            expect(String(error)).toMatch(/has no title/);
            return;
          }
          // A copy: the serialisers check it as a record from anywhere.
          const copy: MarcRecord = { leader: record.leader, fields: [...record.fields] };
          expect(() => checkStructure(copy)).not.toThrow();
          expect(withoutForbidden(copy)).toEqual(copy);
        },
      ),
      { numRuns: 400 },
    );
  });
});
