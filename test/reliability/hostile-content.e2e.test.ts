import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.ts";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { tinyPng, writeContent } from "../helpers/content.ts";
import { zipText } from "../exports/zip.ts";
import { cli, runCli, snapshot } from "./helpers.ts";

/** Text that a careless program would mangle, normalise, evaluate or choke on: handled exactly, or refused clearly. */

const csv = (cells: (string | number)[]) =>
  cells
    .map((c) => (/[",\r\n]/.test(String(c)) ? `"${String(c).replaceAll('"', '""')}"` : String(c)))
    .join(",");
const table = (header: string, rows: (string | number)[][]) =>
  `${header}\n${rows.map(csv).join("\n")}\n`;

const NAMES: Record<number, string> = {
  20: "Amélie".normalize("NFC"),
  21: "Amélie".normalize("NFD"), // the same title, decomposed: a different string, kept as written
  22: "Zero\u200bwidth\u200cjoin\u200dand\ufeffnbsp", // zero-width space, non-joiner, joiner, BOM inside
  23: "\u202eevil\u202c עברית \u2067العربية\u2069 \u200fmark", // right-to-left override, isolates, Hebrew, Arabic
  24: "Emoji 🎬 👩🏽‍💻 🏳️‍🌈 \u{1f1ea}\u{1f1f8} 𝕏", // sequences, flags, astral planes
  25: "=1+1",
  26: "+34 600 000 000",
  27: "-Menos",
  28: "@SUM(A1)",
  29: '=HYPERLINK("http://evil.example","clic")',
  30: "=cmd|' /C calc'!A0",
  31: "<b>bold</b> & \"quoted\" 'single'",
  32: "Line\u2029sep", // paragraph separator: a line break the loader refuses in names
};
const DIRECTOR_NAME = "@Director =2+2";
const DOMAIN_NAME = "=Red \u202eUno\u202c 🎬";
// Just under the cap: multi-byte text, right-to-left and emoji, kept byte for byte.
const BIO = ("Biografía 🎬 עברית \u200b " + "x".repeat(50)).repeat(1500).slice(0, 99_990);

/** A valid PNG header (signature, IHDR, a tiny IDAT, IEND) for an image of any size. */
function bombPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(64))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-hostile-")));
afterAll(() => cleanup());

async function hostileContent(name: string, bio = BIO) {
  const ids = Object.keys(NAMES)
    .map(Number)
    .filter((id) => id !== 32);
  return writeContent(path.join(dir, name), {
    domains: table("domain,name,locale", [
      ["uno.example", DOMAIN_NAME, "es"],
      ["dos.example", "Dos", "en"],
    ]),
    directors: table("id,name,slug,description_es,description_en", [
      [1, DIRECTOR_NAME, "director-1", bio, "Short."],
    ]),
    audiovisuals: table(
      "id,name,slug,director_id,cover",
      ids.map((id) => [id, NAMES[id]!, `work-${id}`, 1, "covers/a.png"]),
    ),
    availability: table(
      "audiovisual_id,domain,available_from",
      ids.flatMap((id) => [
        [id, "uno.example", "2020-01-01"],
        [id, "dos.example", "2020-01-01"],
      ]),
    ),
  });
}

describe("Unicode edge cases", () => {
  it("titles, names and a 99,990-character biography come out of the JSON exactly as written", async () => {
    const content = await hostileContent("unicode");
    const out = path.join(dir, "unicode-out");
    await buildFixture(content, out);
    for (const [id, name] of Object.entries(NAMES)) {
      if (id === "32") continue;
      const detail = JSON.parse(
        await readFile(path.join(out, "uno.example/_api/detail", `${id}.json`), "utf8"),
      );
      expect(detail.name).toBe(name);
      expect(detail.director.name).toBe(DIRECTOR_NAME);
      expect(detail.director.description_es).toBe(BIO);
      // Raw UTF-8 in the file (compact JSON, nothing escaped but what JSON requires).
      expect(
        await readFile(path.join(out, "uno.example/_api/detail", `${id}.json`), "utf8"),
      ).toContain(JSON.stringify(name).slice(1, -1));
    }
    const page = JSON.parse(
      await readFile(path.join(out, "uno.example/_api/list/plain/name/1.json"), "utf8"),
    );
    const listed = page.results.map((r: { id: number; name: string }) => [r.id, r.name]);
    // NFC and NFD spellings compare equal under the collator: neighbours, ties by id.
    const nfc = listed.findIndex(([id]: [number]) => id === 20);
    expect(listed[nfc + 1]).toEqual([21, NAMES[21]]);
    expect(NAMES[20]).not.toBe(NAMES[21]);
    const build = JSON.parse(await readFile(path.join(out, "_catalogue/build.json"), "utf8"));
    expect(build.domains[0].name).toBe(DOMAIN_NAME);
  });

  it("a 1 MB biography and a name with a paragraph separator are refused with their line and column", async () => {
    const content = await hostileContent("huge", "é".repeat(500_000) + "x".repeat(500_000));
    await writeFile(
      path.join(content, "audiovisuals.csv"),
      (await readFile(path.join(content, "audiovisuals.csv"), "utf8")) +
        csv([32, NAMES[32]!, "work-32", 1, "covers/a.png"]) +
        "\n",
    );
    const out = path.join(dir, "huge-out");
    await buildFixture(await writeContent(path.join(dir, "huge-before")), out);
    const before = await snapshot(out);
    const error = await buildFixture(content, out).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message.replaceAll(content, "content").split("\n")).toEqual([
      "content/audiovisuals.csv:14: name: must be on one line: remove the line break",
      "content/directors.csv:2: description_es: is longer than 100,000 characters",
    ]);
    expect(await snapshot(out)).toEqual(before);
  });
});

describe("formula-like text in the spreadsheets", () => {
  it("stays text in every cell of every export of every domain (names, director, document title)", async () => {
    const content = await hostileContent("formulas");
    const out = path.join(dir, "formulas-out");
    await buildFixture(content, out);
    let checked = 0;
    for (const domain of ["uno.example", "dos.example"]) {
      const exports = path.join(out, domain, "_api/export");
      // The spreadsheets (the MARC files beside them are checked by test/marc).
      for (const name of (await readdir(exports)).filter((n) => n.endsWith(".xlsx"))) {
        const file = path.join(exports, name);
        const xml = await zipText(file, "xl/worksheets/sheet1.xml");
        expect(xml).not.toMatch(/<f[ >]/);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.readFile(file);
        const sheet = workbook.worksheets[0]!;
        const header: string[] = [];
        sheet.getRow(1).eachCell((cell) => header.push(cell.text));
        const [nameCol, directorCol] = [header.indexOf("name") + 1, header.indexOf("director") + 1];
        expect(nameCol * directorCol).toBeGreaterThan(0);
        sheet.eachRow((row, number) => {
          row.eachCell((cell) => {
            expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
            expect(cell.formula).toBeUndefined();
          });
          if (number === 1) return;
          const id = Number(row.getCell(1).value);
          expect(row.getCell(nameCol).text).toBe(NAMES[id]);
          expect(row.getCell(directorCol).text).toBe(DIRECTOR_NAME);
          checked++;
        });
        if (domain === "uno.example") {
          // The domain's name reaches the document properties as escaped XML text.
          const core = await zipText(file, "docProps/core.xml");
          expect(workbook.title).toContain(DOMAIN_NAME);
          expect(core).not.toContain("<Red");
        }
      }
    }
    // export_excel lists the 12 works in both domains; ups and downs are empty with these dates.
    expect(checked).toBeGreaterThanOrEqual(24);
  });
});

describe("hostile images through the command line", () => {
  it("a decompression bomb and a symlink leaving content/ are refused with exit 1 and their line", async () => {
    const content = await writeContent(path.join(dir, "images"), {
      audiovisuals:
        "id,name,slug,cover\n10,Bomb,bomb,covers/huge.png\n11,Link,link,covers/link.png\n12,Fine,fine,covers/a.png\n",
      availability:
        "audiovisual_id,domain,available_from\n10,uno.example,2020-01-01\n11,uno.example,2020-01-01\n12,uno.example,2020-01-01\n",
    });
    // A 120-byte PNG that claims 100000 x 100000 pixels: ten gigapixels if anything decoded it.
    await writeFile(path.join(content, "covers/huge.png"), bombPng(100_000, 100_000));
    await tinyPng(path.join(dir, "secret.png"));
    await symlink(path.join(dir, "secret.png"), path.join(content, "covers/link.png"));
    const out = path.join(dir, "images-out");
    const expected = [
      `${content}/audiovisuals.csv:2: cover: image is 100000x100000 pixels, more than the 50 megapixels allowed: "covers/huge.png"`,
      `${content}/audiovisuals.csv:3: cover: the image resolves outside the content folder (a symlink?): "covers/link.png"`,
      "2 problem(s) found; nothing was written",
    ];
    const started = performance.now();
    const result = await cli([
      "build",
      "--content",
      content,
      "--out",
      out,
      "--date",
      "2026-11-20",
      "--no-site",
      "--cache",
      path.join(dir, ".cache"),
    ]);
    expect(result.stderr.trimEnd().split("\n")).toEqual(expected);
    expect(result.code).toBe(1);
    // Refused from the header, not by decoding ten gigapixels.
    expect(performance.now() - started).toBeLessThan(30_000);
    const validate = await runCli(["validate", "--content", content]);
    expect(validate.code).toBe(1);
    expect(validate.stderr.trimEnd().split("\n")).toEqual([
      ...expected.slice(0, 2),
      "2 problem(s) found",
    ]);
    await expect(readdir(out)).rejects.toThrow();
  }, 60_000);
});
