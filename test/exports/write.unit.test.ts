import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EXPORT_KINDS, exportPath, type ExportKind } from "../../src/api/layout.ts";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView } from "../../src/model/domain-view.ts";
import { stringsFor } from "../../src/web/i18n.ts";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";
import { zipText } from "./zip.ts";

// buildFixture builds at T = 2026-11-20. uno.example has a window of N = 5 days: ups are
// available_from in 2026-11-16 … 2026-11-20, downs available_until in 2026-11-15 … 2026-11-19.
const DOMAINS =
  "domain,name,locale,export_window_days\nuno.example,Red Uno,es,5\ntwo.example,Network Two,en-GB,5\ntres.example,Tres,fr,0\n";
const DIRECTORS = "id,name,slug\n1,Alice Guy,alice-guy\n";
const WORKS = [
  "id,name,slug,audiovisual_type,director_id,year,duration,cover,status_global",
  "1,Film 10,film-10,peliculas,1,1920,90,covers/a.png,1",
  "2,Film 2,film-2,cortometrajes,1,1910,12,covers/a.png,1",
  "3,Ábaco,abaco,documentales,,,,covers/a.png,1",
  "4,barco,barco,,,2001,80,covers/a.png,1",
  "5,Cometa,cometa,,,2002,80,covers/a.png,1",
  "6,Después,despues,,,2003,80,covers/a.png,1",
  "7,Eclipse,eclipse,,,2004,80,covers/a.png,1",
  "8,Faro,faro,,,2005,80,covers/a.png,1",
  "9,Gato,gato,,,2006,80,covers/a.png,1",
  "10,Hielo,hielo,,,2007,80,covers/a.png,1",
  "11,Isla,isla,,,2008,80,covers/a.png,0",
  '12,"=1+1",formula-1,,,,,covers/a.png,1',
  '13,"+34 600",formula-2,,,,,covers/a.png,1',
  '14,"-Menos",formula-3,,,,,covers/a.png,1',
  '15,"@SUM(A1)",formula-4,,,,,covers/a.png,1',
].join("\n");
const AVAILABILITY = [
  "audiovisual_id,domain,available_from,available_until",
  "1,uno.example,2020-01-01,",
  "2,uno.example,2020-01-01,",
  "3,uno.example,2026-11-15,", // T-N: listed, not an up
  "4,uno.example,2026-11-16,", // T-N+1: an up
  "5,uno.example,2026-11-20,", // T: an up
  "6,uno.example,2026-11-21,", // T+1: not yet
  "7,uno.example,2020-01-01,2026-11-15", // until T-N: a down
  "8,uno.example,2020-01-01,2026-11-20", // until T: still listed, not a down
  "9,uno.example,2020-01-01,2026-11-19", // until T-1: a down
  "10,uno.example,2020-01-01,2026-11-14", // until T-N-1: too old
  "11,uno.example,2026-11-20,", // status_global 0: never listed, not an up
  "12,uno.example,2020-01-01,",
  "13,uno.example,2020-01-01,",
  "14,uno.example,2020-01-01,",
  "15,uno.example,2026-11-19,", // an up whose title looks like a formula
  "1,two.example,2020-01-01,",
  "3,two.example,2020-01-01,",
  "5,tres.example,2026-11-20,", // window 0: listed, not an up
  "9,tres.example,2020-01-01,2026-11-19", // window 0: not a down
].join("\n");

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;
const books = new Map<string, ExcelJS.Workbook>();

const file = (domain: string, kind: ExportKind, root = out) =>
  path.join(root, exportPath(domain, kind));

async function book(domain: string, kind: ExportKind): Promise<ExcelJS.Workbook> {
  const key = `${domain}/${kind}`;
  let workbook = books.get(key);
  if (workbook === undefined) {
    workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file(domain, kind));
    books.set(key, workbook);
  }
  return workbook;
}

/** The rows below the header, each as plain values (text, number, YYYY-MM-DD, or null). */
async function rows(domain: string, kind: ExportKind): Promise<(string | number | null)[][]> {
  const sheet = (await book(domain, kind)).worksheets[0]!;
  const result: (string | number | null)[][] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    result.push(
      Array.from({ length: 12 }, (_, c) => {
        const cell = row.getCell(c + 1);
        if (cell.type === ExcelJS.ValueType.Null) return null;
        if (cell.type === ExcelJS.ValueType.Number) return cell.value as number;
        if (cell.type === ExcelJS.ValueType.Date)
          return (cell.value as Date).toISOString().slice(0, 10);
        return cell.text;
      }),
    );
  }
  return result;
}
const ids = async (domain: string, kind: ExportKind) =>
  (await rows(domain, kind)).map((row) => row[0]);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  content = await writeContent(
    path.join(dir, "content"),
    { domains: DOMAINS, directors: DIRECTORS, audiovisuals: WORKS, availability: AVAILABILITY },
    ["covers/a.png"],
  );
  out = path.join(dir, "out");
  await buildFixture(content, out);
});
afterAll(() => cleanup());

describe("writeExports", () => {
  it("starts with the contract's header, then what staff need", async () => {
    const header = (await book("uno.example", "export_excel")).worksheets[0]!.getRow(1);
    expect(Array.from({ length: 12 }, (_, c) => header.getCell(c + 1).text)).toEqual([
      "id",
      "name",
      "slug",
      "audiovisual_type",
      "director",
      "year",
      "available_from",
      "available_until",
      "duration",
      "url",
      "director_slug",
      "category",
    ]);
  });

  it("lists every listed work once, in the domain's name order", async () => {
    const catalogue = await loadCatalogue(content);
    const view = domainView(catalogue, catalogue.domains[0]!, "2026-11-20");
    const listed = await ids("uno.example", "export_excel");
    expect(listed).toEqual(view.orders.name.map((w) => w.work.id));
    expect([...listed].sort((a, b) => Number(a) - Number(b))).toEqual([
      1, 2, 3, 4, 5, 8, 12, 13, 14, 15,
    ]);
    // Accents and case ignored, numbers compared as numbers.
    const plain = listed.filter((id) => [1, 2, 3, 4, 5, 8].includes(Number(id)));
    expect(plain).toEqual([3, 4, 5, 8, 2, 1]);
  });

  it("writes each field with its type: numbers, date cells, text, empty cells for nulls", async () => {
    const byId = new Map((await rows("uno.example", "export_excel")).map((row) => [row[0], row]));
    expect(byId.get(1)).toEqual([
      1,
      "Film 10",
      "film-10",
      "peliculas",
      "Alice Guy",
      1920,
      "2020-01-01",
      null,
      90,
      "https://uno.example/audiovisual-detail/1/film-10/",
      "alice-guy",
      stringsFor("es").categories.peliculas,
    ]);
    expect(byId.get(3)).toEqual([
      3,
      "Ábaco",
      "abaco",
      "documentales",
      null,
      null,
      "2026-11-15",
      null,
      null,
      "https://uno.example/audiovisual-detail/3/abaco/",
      null,
      stringsFor("es").categories.documentales,
    ]);
    expect(byId.get(8)![7]).toBe("2026-11-20");
    const sheet = (await book("uno.example", "export_excel")).worksheets[0]!;
    expect(sheet.getRow(2).getCell(7).type).toBe(ExcelJS.ValueType.Date);
  });

  it("keeps titles starting with =, +, - or @ as text", async () => {
    const byId = new Map(
      (await rows("uno.example", "export_excel")).map((row) => [row[0], row[1]]),
    );
    expect([12, 13, 14, 15].map((id) => byId.get(id))).toEqual([
      "=1+1",
      "+34 600",
      "-Menos",
      "@SUM(A1)",
    ]);
    for (const kind of ["export_excel", "export_up_movies"] as const) {
      expect(await zipText(file("uno.example", kind), "xl/worksheets/sheet1.xml")).not.toContain(
        "<f",
      );
    }
  });

  it("puts in the ups the works whose available_from is in T-N+1 … T", async () => {
    const catalogue = await loadCatalogue(content);
    const view = domainView(catalogue, catalogue.domains[0]!, "2026-11-20");
    const ups = await ids("uno.example", "export_up_movies");
    expect([...ups].sort((a, b) => Number(a) - Number(b))).toEqual([4, 5, 15]);
    expect(ups).toEqual(view.ups.map((w) => w.work.id));
  });

  it("puts in the downs the works whose available_until is in T-N … T-1, in name order", async () => {
    expect(await ids("uno.example", "export_down_movies")).toEqual([7, 9]);
    const [eclipse] = await rows("uno.example", "export_down_movies");
    expect(eclipse!.slice(6, 8)).toEqual(["2020-01-01", "2026-11-15"]);
  });

  it("writes empty ups and downs (header only) for a window of 0 days", async () => {
    expect(await ids("tres.example", "export_excel")).toEqual([5]);
    expect(await ids("tres.example", "export_up_movies")).toEqual([]);
    expect(await ids("tres.example", "export_down_movies")).toEqual([]);
    expect((await book("tres.example", "export_up_movies")).worksheets[0]!.autoFilter).toBe(
      "A1:L1",
    );
  });

  it("names the sheets and labels the categories in the domain's language", async () => {
    const names = async (domain: string) =>
      Promise.all(EXPORT_KINDS.map(async (kind) => (await book(domain, kind)).worksheets[0]!.name));
    expect(await names("uno.example")).toEqual(["Catálogo", "Altas", "Bajas"]);
    expect(await names("two.example")).toEqual(["Catalogue", "Additions", "Withdrawals"]);
    expect(await names("tres.example")).toEqual(["Catalogue", "Acquisitions", "Retraits"]); // fr: French since i18n/fr.json
    const english = stringsFor("en").categories;
    expect(english.peliculas).not.toBe(stringsFor("es").categories.peliculas);
    const two = new Map(
      (await rows("two.example", "export_excel")).map((row) => [row[0], row[11]]),
    );
    expect([two.get(1), two.get(3)]).toEqual([english.peliculas, english.documentales]);
  });

  it("describes each file in its document properties: domain, window and build date", async () => {
    const ups = await book("uno.example", "export_up_movies");
    expect(ups.creator).toBe("catalogue");
    expect(ups.title).toContain("Red Uno");
    expect(ups.subject).toContain("uno.example");
    expect(ups.subject).toMatch(/2026-11-16.*2026-11-20/);
    expect(ups.keywords).toContain("uno.example");
    expect(ups.created.toISOString()).toBe("2026-11-20T00:00:00.000Z");
    const downs = await book("uno.example", "export_down_movies");
    expect(downs.subject).toMatch(/2026-11-15.*2026-11-19/);
    const sheet = (await book("uno.example", "export_excel")).worksheets[0]!;
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBe("A1:L11");
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    // The URL column fits the longest URL.
    const url = "https://uno.example/audiovisual-detail/15/formula-4/".length;
    expect(sheet.getColumn(10).width).toBeGreaterThan(url);
  });

  it("gives byte-identical files when built again at another time of day", async () => {
    const again = path.join(dir, "again");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-11-20T23:59:58Z"));
      await buildFixture(content, again);
    } finally {
      vi.useRealTimers();
    }
    for (const domain of ["uno.example", "two.example", "tres.example"]) {
      for (const kind of EXPORT_KINDS) {
        const [a, b] = await Promise.all([
          readFile(file(domain, kind)),
          readFile(file(domain, kind, again)),
        ]);
        expect(a.equals(b), `${domain} ${kind}`).toBe(true);
      }
    }
  });

  it("does not rewrite the files when nothing changed", async () => {
    const before = await Promise.all(EXPORT_KINDS.map((kind) => stat(file("uno.example", kind))));
    // Later on the clock, so that a time stamp written into the files would change their bytes.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 3_600_000);
      await buildFixture(content, out);
    } finally {
      vi.useRealTimers();
    }
    const after = await Promise.all(EXPORT_KINDS.map((kind) => stat(file("uno.example", kind))));
    expect(after.map((s) => [s.ino, s.mtimeMs])).toEqual(before.map((s) => [s.ino, s.mtimeMs]));
  });
});
