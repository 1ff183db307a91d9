import { readFile } from "node:fs/promises";
import path from "node:path";
import { crc32 } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dosDateTime, ZipWriter } from "../../src/util/zip.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { dosDate, readZip } from "../exports/zip.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/** Text that compresses poorly and well, in pieces of uneven sizes (an empty one included). */
function pieces(): Buffer[] {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return [0, 1, 70_000, 0, 5, 131_072, 3].map((size, i) =>
    Buffer.from(
      Array.from({ length: size }, (_, j) =>
        i % 2 === 0
          ? String.fromCharCode(32 + Math.floor(random() * 90))
          : '<row r="1">é</row>'[j % 18],
      ).join(""),
    ),
  );
}

function writeZip(file: string, date: string): void {
  const zip = new ZipWriter(file, date);
  zip.add("first.xml", "<?xml?>\n<a>uno &amp; dos</a>");
  zip.startEntry("dir/chunked.xml");
  for (const piece of pieces()) zip.chunk(piece);
  zip.endEntry();
  zip.add("empty", Buffer.alloc(0));
  zip.finish();
}

describe("ZipWriter", () => {
  it("encodes a day at midnight, clamped to what MS-DOS dates hold", () => {
    expect(dosDate(dosDateTime("2026-11-20"), 0)).toBe("2026-11-20 00:00:00");
    expect(dosDate(dosDateTime("2000-02-29"), 0)).toBe("2000-02-29 00:00:00");
    expect(dosDate(dosDateTime("1970-01-01"), 0)).toBe("1980-01-01 00:00:00");
    expect(dosDate(dosDateTime("2200-06-15"), 0)).toBe("2107-12-31 00:00:00");
  });

  it("writes entries whole or in chunks that a zip reader inflates back, each dated the day in both headers", async () => {
    const file = path.join(dir, "a.zip");
    writeZip(file, "2026-11-20");
    const entries = await readZip(file);
    expect(entries.map((e) => e.name)).toEqual(["first.xml", "dir/chunked.xml", "empty"]);
    expect(entries[0]!.data.toString()).toBe("<?xml?>\n<a>uno &amp; dos</a>");
    expect(entries[1]!.data.equals(Buffer.concat(pieces()))).toBe(true);
    expect(entries[2]!.data.length).toBe(0);
    for (const entry of entries)
      expect([entry.localDate, entry.centralDate]).toEqual([
        "2026-11-20 00:00:00",
        "2026-11-20 00:00:00",
      ]);
  });

  it("records each entry's CRC-32 and sizes in its local header and central record alike", async () => {
    const file = path.join(dir, "c.zip");
    writeZip(file, "2026-11-20");
    const zip = await readFile(file);
    const whole = Buffer.concat(pieces());
    const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    let at = zip.readUInt32LE(end + 16);
    at += 46 + zip.readUInt16LE(at + 28); // the second record: the chunked entry
    const local = zip.readUInt32LE(at + 42);
    for (const [header, crcAt] of [
      [at, 16],
      [local, 14],
    ] as const) {
      expect(zip.readUInt32LE(header + crcAt)).toBe(crc32(whole));
      expect(zip.readUInt32LE(header + crcAt + 8)).toBe(whole.length);
    }
    expect(zip.readUInt32LE(at + 20)).toBe(zip.readUInt32LE(local + 18));
    expect(zip.readUInt16LE(local + 6) & 8).toBe(0); // no data descriptor: the sizes are in the header
  });

  it("gives the same bytes for the same entries and day, other bytes for another day", async () => {
    writeZip(path.join(dir, "1.zip"), "2026-11-20");
    writeZip(path.join(dir, "2.zip"), "2026-11-20");
    writeZip(path.join(dir, "3.zip"), "2026-11-21");
    const [one, two, three] = await Promise.all(
      ["1", "2", "3"].map((n) => readFile(path.join(dir, `${n}.zip`))),
    );
    expect(one!.equals(two!)).toBe(true);
    expect(one!.equals(three!)).toBe(false);
  });

  it("stores entries as they are when told, in whole or in chunks, and marks names that are not ASCII as UTF-8", async () => {
    const file = path.join(dir, "s.zip");
    const zip = new ZipWriter(file, "2026-11-20", { level: 9 });
    zip.add("covers/a.webp", Buffer.from("already compressed"), { store: true });
    zip.startEntry("big.pf_fragment", { store: true });
    for (const piece of pieces()) zip.chunk(piece);
    zip.endEntry();
    zip.add("películas/ñandú.html", "<p>á</p>");
    zip.finish();
    const entries = await readZip(file);
    expect(entries.map((e) => [e.name, e.data.length])).toEqual([
      ["covers/a.webp", 18],
      ["big.pf_fragment", Buffer.concat(pieces()).length],
      ["películas/ñandú.html", 9],
    ]);
    expect(entries[1]!.data.equals(Buffer.concat(pieces()))).toBe(true);
    // test/util/zip-tools.e2e.test.ts: zipinfo and Python's zipfile read the same.
  });
});
