import { describe, expect, it } from "vitest";
import { decodeText, SAVE_AS_UTF8 } from "../../src/content/encoding.ts";

describe("the encodings of CSV files", () => {
  it("reads UTF-8 and UTF-16 with a byte order mark (Excel's Unicode Text)", () => {
    const text = "id\tname\n1\tMéliès 😀\n";
    expect(decodeText(Buffer.from(`\uFEFF${text}`, "utf8"), "f.csv")).toBe(text);
    expect(
      decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]), "f.csv"),
    ).toBe(text);
    const be = Buffer.from(text, "utf16le").swap16();
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), "f.csv")).toBe(text);
  });

  it("refuses a file that is not UTF-8 at its first such line, naming the word and how to save it", () => {
    const bytes = Buffer.concat([
      Buffer.from("id,name\n1,Ok\n"),
      Buffer.from("2,Peñíscola y Cañón\n", "latin1"),
    ]);
    expect(decodeText(bytes, "f.csv")).toEqual({
      file: "f.csv",
      line: 3,
      message: `not UTF-8 ("Peñíscola" if read as Windows-1252): ${SAVE_AS_UTF8}`,
    });
  });

  it("names UTF-32, with or without its byte order mark, as an encoding to save again", () => {
    const utf32 = (text: string, bigEndian: boolean) => {
      const codes = [...text].map((char) => char.codePointAt(0)!);
      const out = Buffer.alloc(codes.length * 4);
      codes.forEach((code, i) =>
        bigEndian ? out.writeUInt32BE(code, i * 4) : out.writeUInt32LE(code, i * 4),
      );
      return out;
    };
    for (const [bigEndian, order] of [
      [false, "LE"],
      [true, "BE"],
    ] as const) {
      for (const text of ["\uFEFFid,name\n1,Méliès 😀\n", "id,name\n"]) {
        expect(
          decodeText(utf32(text, bigEndian), "f.csv"),
          `${order} ${JSON.stringify(text)}`,
        ).toEqual({
          file: "f.csv",
          line: 1,
          message: `UTF-32 (${order}), which the catalogue does not read: ${SAVE_AS_UTF8}`,
        });
      }
    }
    // UTF-16LE's byte order mark alone is still UTF-16.
    expect(
      decodeText(
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("id\n", "utf16le")]),
        "f.csv",
      ),
    ).toBe("id\n");
  });

  it("says a workbook is not a CSV file", () => {
    for (const magic of [
      Buffer.from("PK\x03\x04rest", "latin1"),
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2]),
    ]) {
      expect(decodeText(magic, "f.csv")).toMatchObject({
        file: "f.csv",
        message: expect.stringMatching(
          /^this is a spreadsheet workbook, not a CSV file: save it as CSV: in Excel/,
        ),
      });
    }
  });
});
