import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import archiver from "archiver";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dosDateTime, pinZipDates } from "../../src/exports/zip-dates.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { dosDate, readZip } from "./zip.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

/** A zip written by archiver (as exceljs does), its entries stamped with an old date. */
async function zipOf(file: string, entries: Record<string, string>, comment = ""): Promise<void> {
  const zip = archiver("zip", { comment });
  const output = createWriteStream(file);
  const closed = once(output, "close");
  zip.pipe(output);
  for (const [name, text] of Object.entries(entries)) zip.append(text, { name, date: new Date("2001-02-03T04:05:06Z") });
  await zip.finalize();
  await closed;
}

describe("pinZipDates", () => {
  it("encodes a day at midnight, clamped to what MS-DOS dates hold", () => {
    expect(dosDate(dosDateTime("2026-11-20"), 0)).toBe("2026-11-20 00:00:00");
    expect(dosDate(dosDateTime("2000-02-29"), 0)).toBe("2000-02-29 00:00:00");
    expect(dosDate(dosDateTime("1970-01-01"), 0)).toBe("1980-01-01 00:00:00");
    expect(dosDate(dosDateTime("2200-06-15"), 0)).toBe("2107-12-31 00:00:00");
  });

  it("restamps every entry in both headers, content untouched, even behind a zip comment", async () => {
    const file = path.join(dir, "a.zip");
    const entries = { "a.txt": "alpha ".repeat(1000), "dir/b.xml": "<b/>", "c.txt": "" };
    await zipOf(file, entries, "a comment that pushes the end record back");
    const before = await readZip(file);
    expect(before.map((e) => e.centralDate)).not.toContain("2026-11-20 00:00:00");
    await pinZipDates(file, "2026-11-20");
    const after = await readZip(file);
    expect(after.map((e) => [e.name, e.localDate, e.centralDate, e.data.toString()])).toEqual(
      Object.entries(entries).map(([name, text]) => [name, "2026-11-20 00:00:00", "2026-11-20 00:00:00", text]),
    );
  });

  it("refuses a file that is not a zip", async () => {
    const file = path.join(dir, "not.zip");
    await writeFile(file, "plain text, no central directory");
    await expect(pinZipDates(file, "2026-11-20")).rejects.toThrow(/bug: .*no end of central directory record/);
  });
});
