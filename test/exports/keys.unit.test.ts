import { mkdtemp, readdir } from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EXPORT_KINDS, exportPath, type ExportKind } from "../../src/api/layout.ts";
import { loadCatalogue, type Catalogue } from "../../src/content/load.ts";
import { domainInfo } from "../../src/pipeline/domain-files.ts";
import { domainInputs } from "../../src/pipeline/domain-inputs.ts";
import { rowsKey, writeExports } from "../../src/exports/write.ts";
import { EXPORTS_CODE, sheetKey, writeSheet, type SheetKeyHead } from "../../src/exports/xlsx.ts";
import { codeVersion } from "../../src/util/code-version.ts";
import { domainView, type DomainView, type ListedWork } from "../../src/model/domain-view.ts";
import type { StagedEntry } from "../../src/output/packed-batch.ts";
import type { FileEntry } from "../../src/output/sink.ts";
import { StagingWriter } from "../../src/output/staging.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";

// writeSheet writes every file: counting its calls tells which files were produced.
vi.mock("../../src/exports/xlsx.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/exports/xlsx.ts")>();
  return { ...actual, writeSheet: vi.fn(actual.writeSheet) };
});

const DATE = "2026-11-20";
// A window of 5 days: ups are available_from in 2026-11-16 … 2026-11-20, downs available_until in 2026-11-15 … 2026-11-19.
const DOMAINS = "domain,name,locale,export_window_days\nuno.example,Red Uno,es,5\n";
const DIRECTORS = "id,name,slug\n1,Alice Guy,alice-guy\n";
const WORKS = [
  "id,name,slug,audiovisual_type,director_id,year,duration,cover",
  "1,Faro,faro,peliculas,1,1920,90,covers/a.png",
  "2,Gato,gato,documentales,,2001,,covers/a.png",
  "3,Hielo,hielo,,,,,covers/a.png",
  "4,Isla,isla,cortometrajes,1,1910,12,covers/a.png",
].join("\n");
const AVAILABILITY = [
  "audiovisual_id,domain,available_from,available_until",
  "1,uno.example,2020-01-01,", // listed only
  "2,uno.example,2020-01-01,",
  "3,uno.example,2026-11-18,", // an up
  "4,uno.example,2020-01-01,2026-11-17", // a down
].join("\n");

let dir: string;
let cleanup: () => Promise<void>;
let catalogue: Catalogue;
let view: DomainView;
/** The first build's entries: the previous version of every later build. */
let first: ReadonlyMap<string, StagedEntry>;

const rel = (kind: ExportKind) => exportPath("uno.example", kind);

/** The works' inputs digests, as a build records them before it writes the exports. */
function digests(domainView: DomainView): Map<ListedWork, string> {
  return domainInputs("test", domainView, domainInfo(domainView, false), new Map()).workDigests;
}

/** Writes the exports of `view` into a fresh staging folder over `previous`; says which files were produced. */
async function run(domainView: DomainView, previous: ReadonlyMap<string, FileEntry>) {
  const sink = new StagingWriter(await mkdtemp(path.join(dir, "stage-")), previous);
  vi.mocked(writeSheet).mockClear();
  await writeExports(sink, domainView, digests(domainView));
  const produced = vi.mocked(writeSheet).mock.calls.map(([file]) => path.basename(file, ".xlsx"));
  return { sink, produced, entry: (kind: ExportKind) => sink.entries.get(rel(kind))! };
}

/** The catalogue with one title changed (a new object, so that no cache keyed by the old one applies). */
function retitled(id: number, name: string): Catalogue {
  return {
    ...catalogue,
    works: catalogue.works.map((work) => (work.id === id ? { ...work, name } : work)),
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  const content = await writeContent(
    path.join(dir, "content"),
    { domains: DOMAINS, directors: DIRECTORS, audiovisuals: WORKS, availability: AVAILABILITY },
    ["covers/a.png"],
  );
  catalogue = await loadCatalogue(content);
  view = domainView(catalogue, catalogue.domains[0]!, DATE);
  expect([view.orders.name.length, view.ups.length, view.downs.length]).toEqual([3, 1, 1]);
  const { sink, produced } = await run(view, new Map());
  expect(produced).toEqual([...EXPORT_KINDS]);
  first = sink.entries;
});
afterAll(() => cleanup());

describe("keyed exports", () => {
  it("records a key with each file it writes", () => {
    for (const kind of EXPORT_KINDS)
      expect(first.get(rel(kind))).toMatchObject({
        fresh: true,
        key: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
    expect(new Set(EXPORT_KINDS.map((kind) => first.get(rel(kind))!.key)).size).toBe(3);
  });

  it("keeps all three files of an unchanged domain without writing any or making a temporary folder", async () => {
    // A temporary folder that cannot be made: writeExports fails if it tries to.
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = path.join(dir, "missing");
    let again;
    try {
      again = await run(view, first);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(again.produced).toEqual([]);
    for (const kind of EXPORT_KINDS) {
      const { size, md5, key } = first.get(rel(kind))!;
      expect(again.entry(kind)).toEqual({ size, md5, key, fresh: false });
    }
    // Kept files are linked from the previous version at commit: nothing was written here.
    expect(await readdir(again.sink.staging, { recursive: true })).toEqual([]);
  });

  it("produces export_excel again, and only it, when a title outside the ups and downs changes", async () => {
    const changed = await run(
      domainView(retitled(2, "Gato pardo"), catalogue.domains[0]!, DATE),
      first,
    );
    expect(changed.produced).toEqual(["export_excel"]);
    expect(changed.entry("export_excel").key).not.toBe(first.get(rel("export_excel"))!.key);
    expect(changed.entry("export_excel").fresh).toBe(true);
    for (const kind of ["export_up_movies", "export_down_movies"] as const)
      expect(changed.entry(kind).fresh).toBe(false);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path.join(changed.sink.staging, rel("export_excel")));
    const titles = workbook.worksheets[0]!.getColumn(2)
      .values.slice(2)
      .map((value) => (value as ExcelJS.CellRichTextValue).richText[0]!.text);
    expect(titles).toEqual(["Faro", "Gato pardo", "Hielo"]);
  });

  it("produces every file again when the build date changes, even with the same rows", async () => {
    const next = domainView(catalogue, catalogue.domains[0]!, "2026-11-21");
    // The same works listed, ups and downs: only the date (in the document properties) differs.
    const ids = (v: DomainView) =>
      [v.orders.name, v.ups, v.downs].map((list) => list.map((listed) => listed.work.id));
    expect(ids(next)).toEqual(ids(view));
    const changed = await run(next, first);
    expect(changed.produced).toEqual([...EXPORT_KINDS]);
    for (const kind of EXPORT_KINDS)
      expect(changed.entry(kind).key).not.toBe(first.get(rel(kind))!.key);
  });

  it("produces every file again when the domain's name, locale or address changes", async () => {
    const domain = catalogue.domains[0]!;
    for (const changed of [
      { ...domain, name: "Red Uno bis" },
      { ...domain, locale: "en" },
      { ...domain, locale: "es-ES" },
      { ...domain, base_url: "https://otra.example" },
    ]) {
      const again = await run(domainView(catalogue, changed, DATE), first);
      expect(again.produced, JSON.stringify(changed)).toEqual([...EXPORT_KINDS]);
    }
  });

  it("produces the files that list a director's works when the director's name changes", async () => {
    const renamed: Catalogue = {
      ...catalogue,
      directors: new Map([[1, { ...catalogue.directors.get(1)!, name: "Alice Guy-Blaché" }]]),
    };
    // Works 1 (listed) and 4 (a down) are hers; the up (3) has no director.
    const changed = await run(domainView(renamed, catalogue.domains[0]!, DATE), first);
    expect(changed.produced).toEqual(["export_excel", "export_down_movies"]);
  });
});

describe("sheetKey and rowsKey", () => {
  const head: SheetKeyHead = {
    sheetName: "Altas",
    headers: ["id", "name", "available_from", "year"],
    rowCount: 3,
    properties: {
      title: "Altas de Uno",
      subject: "Obras de uno.example",
      keywords: "catalogue; uno.example",
      language: "es",
      date: DATE,
    },
  };

  it("differ when any part of the spec differs: sheet name, headers, row count, each property", () => {
    const heads: SheetKeyHead[] = [
      head,
      { ...head, sheetName: "Bajas" },
      { ...head, headers: ["id", "name", "available_until", "year"] },
      { ...head, rowCount: 4 },
      ...(Object.keys(head.properties) as (keyof SheetKeyHead["properties"])[]).map((name) => ({
        ...head,
        properties: {
          ...head.properties,
          [name]: name === "date" ? "2026-11-21" : `${head.properties[name]}!`,
        },
      })),
    ];
    expect(new Set(heads.map((h) => sheetKey(h, "rows"))).size).toBe(heads.length);
    expect(sheetKey(structuredClone(head), "rows")).toBe(sheetKey(head, "rows"));
    expect(sheetKey(head, "other rows")).not.toBe(sheetKey(head, "rows"));
    // The code that writes the sheets (EXPORTS_CODE's version) is part of it.
    expect(sheetKey(head, "rows", "0".repeat(32))).not.toBe(sheetKey(head, "rows"));
    expect(sheetKey(head, "rows", codeVersion(EXPORTS_CODE))).toBe(sheetKey(head, "rows"));
  });

  it("rowsKey differs when any row's work, the rows' order or number or the domain's address differs", () => {
    const works = view.orders.name;
    const workDigests = digests(view);
    const domain = catalogue.domains[0]!;
    const base = rowsKey(domain, works, workDigests);
    expect(rowsKey({ ...domain }, [...works], new Map(workDigests))).toBe(base);
    const keys = new Set([base]);
    works.forEach((listed) =>
      keys.add(rowsKey(domain, works, new Map([...workDigests, [listed, "0".repeat(32)]]))),
    );
    keys.add(rowsKey(domain, [...works].reverse(), workDigests));
    keys.add(rowsKey(domain, works.slice(0, -1), workDigests));
    keys.add(rowsKey({ ...domain, base_url: "https://otra.example" }, works, workDigests));
    expect(keys.size).toBe(works.length + 4);
  });

  it("rowsKey refuses a work without an inputs digest (a bug: it would key the sheet by nothing)", () => {
    expect(() => rowsKey(catalogue.domains[0]!, view.orders.name, new Map())).toThrow(
      /bug: no inputs digest/,
    );
  });
});
