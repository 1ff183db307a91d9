import { readFile } from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CellValue } from "../../src/exports/columns.ts";
import { writeSheet, type SheetSpec } from "../../src/exports/xlsx.ts";
import { columnLetters, dateSerial, xmlEncode } from "../../src/exports/xlsx-parts.ts";
import { XML_FORBIDDEN } from "../../src/util/xml-chars.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeWithExcelJS } from "./exceljs-reference.ts";
import { readZip, zipText } from "./zip.ts";

const DATE = "2026-11-20";

function spec(rows: CellValue[][], extra: Partial<SheetSpec> = {}): SheetSpec {
  return {
    sheetName: "Altas",
    headers: ["id", "name", "available_from", "available_until"],
    widths: [6, 30, 17, 18],
    rowCount: rows.length,
    rows,
    properties: {
      title: "Altas de Uno",
      subject: "Obras de uno.example",
      keywords: "catalogue uno.example",
      language: "es",
      date: DATE,
    },
    ...extra,
  };
}

async function readBack(file: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return { workbook, sheet: workbook.worksheets[0]! };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

describe("writeSheet", () => {
  it("writes numbers as numbers, days as date cells at UTC midnight, text as text and nulls as empty cells", async () => {
    const file = path.join(dir, "a.xlsx");
    await writeSheet(
      file,
      spec([
        [
          { kind: "number", value: 42 },
          { kind: "text", value: 'Élan & <Co> "1"' },
          { kind: "date", value: "2024-02-29" },
          null,
        ],
      ]),
    );
    const { sheet } = await readBack(file);
    const [id, name, from, until] = [1, 2, 3, 4].map((c) => sheet.getRow(2).getCell(c));
    expect(id!.type).toBe(ExcelJS.ValueType.Number);
    expect(id!.value).toBe(42);
    expect(name!.text).toBe('Élan & <Co> "1"');
    expect(from!.type).toBe(ExcelJS.ValueType.Date);
    expect((from!.value as Date).toISOString()).toBe("2024-02-29T00:00:00.000Z");
    expect(from!.numFmt).toBe("yyyy-mm-dd");
    expect(until!.type).toBe(ExcelJS.ValueType.Null);
    // The serial number Excel sees: days since 1899-12-30, whole (no time of day).
    const xml = await zipText(file, "xl/worksheets/sheet1.xml");
    expect(xml).toMatch(/<c r="C2" s="\d+"><v>45351<\/v><\/c>/);
  });

  it("keeps text that looks like a formula as text: no <f> element, an inline string cell", async () => {
    const titles = [
      "=1+1",
      "+34 600 000 000",
      "-Menos",
      "@SUM(A1)",
      '=HYPERLINK("http://evil.example","x")',
      "=cmd|' /C calc'!A0",
    ];
    const file = path.join(dir, "f.xlsx");
    await writeSheet(
      file,
      spec(
        titles.map((title, i) => [
          { kind: "number", value: i + 1 },
          { kind: "text", value: title },
          null,
          null,
        ]),
      ),
    );
    const xml = await zipText(file, "xl/worksheets/sheet1.xml");
    expect(xml).not.toContain("<f");
    titles.forEach((_, i) =>
      expect(xml).toMatch(new RegExp(`<c r="B${i + 2}" t="inlineStr"><is>`)),
    );
    const { sheet } = await readBack(file);
    titles.forEach((title, i) => {
      const cell = sheet.getRow(i + 2).getCell(2);
      expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
      expect(cell.formula).toBeUndefined();
      expect(cell.text).toBe(title);
    });
  });

  it("has a bold, frozen header row, an autofilter over the rows, the widths and the document properties", async () => {
    const rows: CellValue[][] = [1, 2, 3].map((id) => [
      { kind: "number", value: id },
      { kind: "text", value: `Obra ${id}` },
      null,
      null,
    ]);
    const file = path.join(dir, "p.xlsx");
    await writeSheet(file, spec(rows));
    const { workbook, sheet } = await readBack(file);
    expect(sheet.name).toBe("Altas");
    expect(sheet.getRow(1).getCell(3).text).toBe("available_from");
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).font?.bold).toBeFalsy();
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBe("A1:D4");
    expect([1, 2, 3, 4].map((c) => sheet.getColumn(c).width)).toEqual([6, 30, 17, 18]);
    expect(workbook.creator).toBe("catalogue");
    expect(workbook.lastModifiedBy).toBe("catalogue");
    expect(workbook.title).toBe("Altas de Uno");
    expect(workbook.subject).toBe("Obras de uno.example");
    expect(workbook.keywords).toBe("catalogue uno.example");
    expect(workbook.created.toISOString()).toBe(`${DATE}T00:00:00.000Z`);
    expect(workbook.modified.toISOString()).toBe(`${DATE}T00:00:00.000Z`);
  });

  it("writes a sheet without rows as the header alone", async () => {
    const file = path.join(dir, "e.xlsx");
    await writeSheet(file, spec([]));
    const { sheet } = await readBack(file);
    expect(sheet.rowCount).toBe(1);
    expect(sheet.autoFilter).toBe("A1:D1");
  });

  it("gives the same bytes whatever the clock says, every zip entry dated the build date", async () => {
    const rows: CellValue[][] = [
      [
        { kind: "number", value: 1 },
        { kind: "text", value: "Uno" },
        { kind: "date", value: "2026-11-01" },
        null,
      ],
    ];
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2031-03-04T05:06:08Z"));
    await writeSheet(path.join(dir, "1.xlsx"), spec(rows));
    vi.setSystemTime(new Date("2029-07-08T21:22:24Z"));
    await writeSheet(path.join(dir, "2.xlsx"), spec(rows));
    vi.useRealTimers();
    const [first, second] = await Promise.all([
      readFile(path.join(dir, "1.xlsx")),
      readFile(path.join(dir, "2.xlsx")),
    ]);
    expect(first.equals(second)).toBe(true);
    const entries = await readZip(path.join(dir, "1.xlsx"));
    expect(entries.length).toBeGreaterThanOrEqual(8);
    for (const entry of entries) {
      expect([entry.name, entry.localDate, entry.centralDate]).toEqual([
        entry.name,
        `${DATE} 00:00:00`,
        `${DATE} 00:00:00`,
      ]);
    }
    expect(await zipText(path.join(dir, "1.xlsx"), "docProps/core.xml")).toContain(
      `<dcterms:modified xsi:type="dcterms:W3CDTF">${DATE}T00:00:00Z<`,
    );
  });

  it("compresses rows as they are written instead of holding the sheet's XML in memory", async () => {
    const count = 20_000;
    function* rows(): Generator<CellValue[]> {
      for (let id = 1; id <= count; id++) {
        yield [
          { kind: "number", value: id },
          { kind: "text", value: `Una obra con un título bastante largo ${id}` },
          { kind: "date", value: "2026-01-01" },
          null,
        ];
      }
    }
    const file = path.join(dir, "big.xlsx");
    const stats = await writeSheet(file, spec([], { rowCount: count, rows: rows() }));
    const xml = (await readZip(file)).find((e) => e.name === "xl/worksheets/sheet1.xml")!.data
      .length;
    // Without waiting for the zip entry to drain, the whole sheet (several MB) would be waiting.
    expect(xml).toBeGreaterThan(2_000_000);
    expect(stats.peakBuffered).toBeLessThan(xml / 10);
  });

  it("fails, instead of hanging, when the file cannot be written", async () => {
    await expect(writeSheet(path.join(dir, "missing", "x.xlsx"), spec([]))).rejects.toMatchObject({
      code: "ENOENT",
    });
  });

  it("refuses rows that do not match the announced count (the autofilter would be wrong)", async () => {
    await expect(writeSheet(path.join(dir, "c.xlsx"), spec([], { rowCount: 2 }))).rejects.toThrow(
      /bug: .*0 rows written, 2 announced/,
    );
  });
});

describe("the parts, written without exceljs", () => {
  /**
   * Writes the spec both ways; every part must be byte-identical (the zips around them differ).
   * exceljs keeps U+FFFE, U+FFFF and lone surrogates, which we drop (XML forbids them): it is
   * given the texts without them.
   */
  async function expectSameAsExcelJS(sheet: SheetSpec) {
    const ours = path.join(dir, "ours.xlsx");
    const reference = path.join(dir, "exceljs.xlsx");
    await writeSheet(ours, { ...sheet, rows: [...sheet.rows] });
    const withoutForbidden = [...sheet.rows].map((row) =>
      row.map((cell) =>
        cell?.kind === "text" ? { ...cell, value: cell.value.replace(XML_FORBIDDEN, "") } : cell,
      ),
    );
    await writeWithExcelJS(reference, { ...sheet, rows: withoutForbidden });
    const [a, b] = [await readZip(ours), await readZip(reference)];
    expect(a.map((e) => [e.name, e.data.toString("utf8")])).toEqual(
      b.map((e) => [e.name, e.data.toString("utf8")]),
    );
  }

  it("are exceljs' own bytes for tricky texts, empty cells anywhere, dates and numbers", async () => {
    const texts = [
      "",
      " leading",
      "trailing ",
      "two\nlines",
      "tab\tinside",
      "\r\n",
      "Élan & <Co> \"1\" 'x'",
      "=1+1",
      "@SUM(A1)",
      "nul\u0000bell\u0007",
      "\u007f",
      "emoji 🎬 astral 𝔄",
      "non\uFFFEcharacters\uFFFF",
      "lone \uD800 halves \uDC00, a pair \uD83C\uDFAC",
      "_x0041_",
      "]]>",
    ];
    const rows: CellValue[][] = texts.map((text, i) => [
      i % 3 === 0 ? null : { kind: "number", value: i * 1000 - 7 },
      { kind: "text", value: text },
      i % 2 === 0 ? { kind: "date", value: `19${10 + i}-0${(i % 9) + 1}-1${i % 10}` } : null,
      i % 4 === 0 ? { kind: "text", value: text } : null,
    ]);
    await expectSameAsExcelJS(spec(rows));
    // Without any date: no date style registered, as exceljs does.
    await expectSameAsExcelJS(spec(rows.map((row) => [row[0]!, row[1]!, null, null])));
    await expectSameAsExcelJS(spec([]));
  });

  it("are exceljs' own bytes for other heads: names and properties to escape, widths shared by neighbours, many columns", async () => {
    const headers = Array.from({ length: 30 }, (_, i) =>
      i === 3 ? " spaced & <odd> " : `col ${i}`,
    );
    const widths = Array.from({ length: 30 }, (_, i) => (i < 5 ? 10 : i < 6 ? 12.5 : 8 + (i % 3)));
    const row: CellValue[] = headers.map((_, i) =>
      i % 5 === 0
        ? { kind: "date", value: "2001-02-03" }
        : i % 5 === 1
          ? null
          : { kind: "text", value: `v${i} "q" 'a'` },
    );
    await expectSameAsExcelJS({
      sheetName: "Bajas & <altas> 'x'",
      headers,
      widths,
      rowCount: 2,
      rows: [row, row],
      properties: {
        title: 'Título "con" <marcas> & más',
        subject: "Sujet l'été",
        keywords: "a; b & c",
        language: "fr-CA",
        date: "1999-12-31",
      },
    });
  });

  it("are exceljs' own bytes for random texts and empty cells", async () => {
    const cell = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -1e6, max: 1e9 }).map((value): CellValue => ({ kind: "number", value })),
      fc
        .date({
          min: new Date("1900-03-01T00:00:00Z"),
          max: new Date("2200-12-31T00:00:00Z"),
          noInvalidDate: true,
        })
        .map((d): CellValue => ({ kind: "date", value: d.toISOString().slice(0, 10) })),
      fc
        .string({ unit: "binary", maxLength: 40 })
        .map((value): CellValue => ({ kind: "text", value })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 4, maxLength: 4 }), { maxLength: 30 }),
        async (rows) => {
          await expectSameAsExcelJS(spec(rows));
        },
      ),
      { numRuns: 40, seed: 739325467 },
    );
  });
});

describe("exceljs' rules, owned", () => {
  it("names every column of a sheet as exceljs does, and no other", () => {
    const sheet = new ExcelJS.Workbook().addWorksheet("s");
    for (let n = 1; n <= 16_384; n++) expect(columnLetters(n)).toBe(sheet.getColumn(n).letter);
    for (const n of [0, -1, 16_385, 1.5, Number.NaN])
      expect(() => columnLetters(n)).toThrow(/bug: column/);
  });

  it("escapes the markup characters and drops the characters XML forbids (beyond exceljs: U+FFFE, U+FFFF, lone surrogates)", () => {
    const all = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join("");
    // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids
    const kept = all.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/g, "");
    const decoded = xmlEncode(all).replace(
      /&(quot|amp|apos|lt|gt);/g,
      (_, name: string) => ({ quot: '"', amp: "&", apos: "'", lt: "<", gt: ">" })[name]!,
    );
    expect(decoded).toBe(kept);
    expect(xmlEncode("plain text, é 🎬")).toBe("plain text, é 🎬");
    expect(xmlEncode("a\uFFFEb\uFFFFc \uD800d\uDC00 🎬 \uD83C")).toBe("abc d 🎬 ");
    expect(xmlEncode(`<a href="x">'&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;",
    );
  });

  it("numbers days as Excel does (days since 1899-12-30)", () => {
    expect([
      dateSerial("1900-03-01"),
      dateSerial("1970-01-01"),
      dateSerial("2000-01-01"),
      dateSerial("2026-11-20"),
    ]).toEqual([61, 25569, 36526, 46346]);
  });
});
