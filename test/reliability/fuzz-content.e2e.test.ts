import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";
import { cli, escapeRegExp, manifestMatches, snapshot } from "./helpers.ts";

/**
 * Property: whatever is done to a valid content folder, `build` either succeeds with a whole
 * output, or throws an InputError whose every line is `FILE:LINE: …` (or `FILE: …`) and leaves the
 * previous output byte for byte. Any other exception is a bug (exit 2 from the CLI).
 */

const FILES = ["domains", "directors", "audiovisuals", "availability"] as const;
type FileName = (typeof FILES)[number];
type Table = string[][];

// Atoms that trouble CSV readers, validators and later stages; strings are drawn from them.
const ATOMS = [
  '"',
  '""',
  ",",
  "\n",
  "\r",
  "\r\n",
  " ",
  "\t",
  "\0",
  "\u0007",
  "\u001b[31m",
  "\u007f",
  "\u0085",
  "\u2028",
  "\ufeff",
  "\u200b",
  "\u200d",
  "\u202e",
  "\u061c",
  "😀",
  "👩🏽‍💻",
  "e\u0301",
  "é",
  "İ",
  "ß",
  "中文",
  "<script>",
  "&amp;",
  "'",
  "\\",
  "=1+1",
  "+34",
  "-",
  "@SUM(A1)",
  "0",
  "1",
  "-1",
  "01",
  "99999999999",
  "1e3",
  "NaN",
  "2026-11-20",
  "2026-02-30",
  "2100",
  "true",
  "false",
  "peliculas",
  "domain-1.example",
  "https://x.example/a",
  "covers/cover-0.png",
  "covers",
  "../x.png",
  "/etc/passwd",
  "covers/../covers/cover-1.png",
  "a-b",
  "A",
  "%00",
  "null",
  "undefined",
  "__proto__",
  "constructor",
];
const cellText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ATOMS), maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom(...ATOMS),
);
const file = fc.constantFrom(...FILES);
const index = fc.nat({ max: 1000 });

type Mutation =
  | { kind: "cell"; file: FileName; row: number; col: number; value: string }
  | { kind: "huge-cell"; file: FileName; row: number; col: number; size: number }
  | { kind: "duplicate-row" | "delete-row"; file: FileName; row: number }
  | { kind: "drop-column" | "duplicate-column"; file: FileName; col: number }
  | { kind: "swap-header" | "swap-columns"; file: FileName; a: number; b: number }
  | { kind: "empty"; file: FileName };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("cell" as const),
      file,
      row: index,
      col: index,
      value: cellText,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("huge-cell" as const),
      file,
      row: index,
      col: index,
      size: fc.constantFrom(1001, 100_001, 2_000_000),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom("duplicate-row" as const, "delete-row" as const),
      file,
      row: index,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom("drop-column" as const, "duplicate-column" as const),
      file,
      col: index,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom("swap-header" as const, "swap-columns" as const),
      file,
      a: index,
      b: index,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("empty" as const), file }) },
);

/** How a table is written back: quoting, line ends (per line: mixes too), BOM, final newline. */
const writing = fc.record({
  quoteAll: fc.boolean(),
  ends: fc.array(fc.constantFrom("\n", "\r\n", "\r"), { minLength: 1, maxLength: 3 }),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
});
type Writing = { quoteAll: boolean; ends: string[]; bom: boolean; finalNewline: boolean };

/** Bytes changed after writing: invalid UTF-8, stray quotes and control bytes, truncation. */
type ByteEdit =
  | { kind: "insert"; file: FileName; at: number; bytes: number[] }
  | { kind: "truncate"; file: FileName; at: number };
const INSERTS = [
  [0xff],
  [0xc3],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf4, 0x90, 0x80, 0x80],
  [0x22],
  [0x00],
  [0x0d],
  [0x0a],
  [0xef, 0xbb, 0xbf],
  [0x2c, 0x22, 0x0a],
];
const byteEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("insert" as const),
      file,
      at: index,
      bytes: fc.constantFrom(...INSERTS),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), file, at: index }) },
);

/** Names take any one-line text: these edits mostly build, and exercise the successful path. */
const nameEdit = fc.record({
  file: fc.constantFrom("directors" as const, "audiovisuals" as const),
  row: index,
  value: cellText,
});

// A third of the runs only rename and rewrite (CRLF, BOM, quoting), so builds are common too.
const scenario = fc.record({
  names: fc.array(nameEdit, { maxLength: 3 }),
  mutations: fc.oneof(
    { weight: 1, arbitrary: fc.constant<Mutation[]>([]) },
    { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 4 }) },
  ),
  writings: fc.record({
    domains: writing,
    directors: writing,
    audiovisuals: writing,
    availability: writing,
  }),
  bytes: fc.oneof(
    { weight: 2, arbitrary: fc.constant<ByteEdit[]>([]) },
    { weight: 1, arbitrary: fc.array(byteEdit, { minLength: 1, maxLength: 2 }) },
  ),
});

function mutate(tables: Record<FileName, Table>, m: Mutation): void {
  const table = tables[m.file];
  if (m.kind === "empty") {
    tables[m.file] = [];
    return;
  }
  if (table.length === 0) return;
  const width = Math.max(...table.map((r) => r.length), 1);
  // Row 0 is the header: cell edits reach it too.
  const at = (n: number, length: number) => n % Math.max(length, 1);
  switch (m.kind) {
    case "cell":
    case "huge-cell": {
      const row = table[at(m.row, table.length)]!;
      row[at(m.col, width)] = m.kind === "cell" ? m.value : "x".repeat(m.size);
      return;
    }
    case "duplicate-row":
      table.splice(at(m.row, table.length), 0, [...table[at(m.row, table.length)]!]);
      return;
    case "delete-row":
      table.splice(at(m.row, table.length), 1);
      return;
    case "drop-column":
    case "duplicate-column": {
      const col = at(m.col, width);
      for (const row of table) {
        if (m.kind === "drop-column") row.splice(col, 1);
        else row.splice(col, 0, row[col] ?? "");
      }
      return;
    }
    case "swap-header":
    case "swap-columns": {
      // Names only (the values no longer match their column), or whole columns (a valid reordering).
      const [a, b] = [at(m.a, table[0]!.length), at(m.b, table[0]!.length)];
      for (const row of m.kind === "swap-header" ? [table[0]!] : table)
        [row[a], row[b]] = [row[b] ?? "", row[a] ?? ""];
      return;
    }
  }
}

function write(table: Table, w: Writing): Buffer {
  const cell = (text: string) =>
    w.quoteAll || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  let text = table
    .map(
      (row, i) =>
        row.map(cell).join(",") +
        (i < table.length - 1 || w.finalNewline ? w.ends[i % w.ends.length]! : ""),
    )
    .join("");
  if (w.bom) text = `\ufeff${text}`;
  return Buffer.from(text, "utf8");
}

function editBytes(bytes: Buffer, edit: ByteEdit): Buffer {
  const at = bytes.length === 0 ? 0 : edit.at % bytes.length;
  if (edit.kind === "truncate") return bytes.subarray(0, at);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(edit.bytes), bytes.subarray(at)]);
}

let dir: string;
let cleanup: () => Promise<void>;
let base: string;
let tables: Record<FileName, Table>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-fuzz-"));
  base = await generatedContent(dir, { works: 12, domains: 2, covers: 3, bio: 80 });
  tables = Object.fromEntries(
    await Promise.all(
      FILES.map(async (name) => [
        name,
        parse(await readFile(path.join(base, `${name}.csv`), "utf8")),
      ]),
    ),
  ) as Record<FileName, Table>;
});
afterAll(() => cleanup());

describe("hostile content folders", () => {
  it("every mutated catalogue either builds whole or is rejected with FILE:LINE messages, keeping the previous output", async () => {
    const content = path.join(dir, "mutated");
    await cp(base, content, { recursive: true });
    const out = path.join(dir, "out");
    const cacheDir = path.join(dir, ".cache");
    await buildFixture(base, out, { cacheDir });
    const line = new RegExp(
      `^${escapeRegExp(content)}/(${FILES.join("|")})\\.csv(:[1-9][0-9]*)?: \\S`,
    );
    const tally = { built: 0, rejected: 0 };

    await fc.assert(
      fc.asyncProperty(scenario, async ({ names, mutations, writings, bytes }) => {
        const copy = structuredClone(tables);
        for (const edit of names) {
          const rows = copy[edit.file];
          rows[1 + (edit.row % (rows.length - 1))]![1] = edit.value; // column 1 is the name
        }
        mutations.forEach((m) => mutate(copy, m));
        const files = Object.fromEntries(
          FILES.map((name) => [name, write(copy[name], writings[name])]),
        ) as Record<FileName, Buffer>;
        for (const edit of bytes) files[edit.file] = editBytes(files[edit.file], edit);
        for (const name of FILES) await writeFile(path.join(content, `${name}.csv`), files[name]);

        const before = await snapshot(out);
        let error: unknown = null;
        await buildFixture(content, out, { cacheDir }).catch((e: unknown) => (error = e));
        if (error === null) {
          tally.built++;
          expect(await manifestMatches(out)).toBe(true);
          return;
        }
        tally.rejected++;
        // Anything but an InputError would be exit 2: fail with its stack.
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a caught error, rethrown as it came
        if (!(error instanceof InputError)) throw error;
        expect(error.problems.length).toBeGreaterThan(0);
        for (const text of error.message.split("\n")) expect(text).toMatch(line);
        expect(await snapshot(out)).toEqual(before);
      }),
      {
        seed: 20261121,
        numRuns: 60,
        interruptAfterTimeLimit: 150_000,
        markInterruptAsFailure: false,
      },
    );
    // Not vacuous: both outcomes happen (the seed is fixed, so these counts are too).
    expect(tally.built + tally.rejected).toBeGreaterThanOrEqual(30);
    expect(tally.built).toBeGreaterThan(5);
    expect(tally.rejected).toBeGreaterThan(20);
  }, 240_000);

  it("a header cell holding a line break is quoted in messages, so each problem stays on one line", async () => {
    const content = path.join(dir, "header-break");
    await cp(base, content, { recursive: true });
    const works = await readFile(path.join(base, "audiovisuals.csv"), "utf8");
    // A quoted header name with a line break, twice (an error), the data rows padded to match.
    await writeFile(
      path.join(content, "audiovisuals.csv"),
      works.replace(/\n/g, ",x,x\n").replace(/^([^\n]*),x,x\n/, '$1,"a\nb","a\nb"\n'),
    );
    const error = await buildFixture(content, path.join(dir, "header-out"), {
      cacheDir: path.join(dir, ".cache"),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message.split("\n")).toEqual([
      `${content}/audiovisuals.csv:1: "a\\nb": column appears twice in the header`,
    ]);
  });

  it("the command line answers a hostile folder with exit 1, FILE:LINE lines and the previous output untouched", async () => {
    const content = path.join(dir, "cli-content");
    await cp(base, content, { recursive: true });
    const out = path.join(dir, "cli-out");
    const args = [
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
    ];
    expect((await cli(args)).code).toBe(0);
    const before = await snapshot(out);

    // Invalid UTF-8 in one file, a quote never closed in another, a header column twice in a third.
    const works = await readFile(path.join(base, "audiovisuals.csv"));
    await writeFile(
      path.join(content, "audiovisuals.csv"),
      Buffer.concat([works, Buffer.from([0x31, 0x33, 0x2c, 0xff, 0xfe, 0x0a])]),
    );
    const directors = await readFile(path.join(base, "directors.csv"), "utf8");
    await writeFile(
      path.join(content, "directors.csv"),
      directors.replace("\n2,", '\n2,"Unclosed,'),
    );
    await writeFile(
      path.join(content, "domains.csv"),
      (await readFile(path.join(base, "domains.csv"), "utf8")).replace("name,", "name,name,"),
    );
    const result = await cli(args);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(/^\d+ problem\(s\) found; nothing was written$/);
    // Files that cannot be read at all are reported once: references into them are not checked.
    expect(lines.slice(0, -1)).toEqual([
      `${content}/audiovisuals.csv:14: not UTF-8 ("ÿþ" if read as Windows-1252): save it as UTF-8: in Excel, Save As "CSV UTF-8 (Comma delimited)"; in LibreOffice, Save As "Text CSV" with "Edit filter settings" and Character set "Unicode (UTF-8)"`,
      `${content}/directors.csv:3: a quoted field is never closed: add the closing double quote`,
      `${content}/domains.csv:1: name: column appears twice in the header`,
    ]);
    expect(await snapshot(out)).toEqual(before);
  }, 60_000);
});
