import type { Problem } from "../errors.ts";

/**
 * How to get a file the catalogue reads, from the programs librarians save CSV files with. A file
 * that is not UTF-8 is refused rather than guessed at: a wrong guess (Windows-1252 for a Mac or
 * DOS file) would publish garbled titles, and once saved as "CSV UTF-8" a file stays so through
 * Excel's later saves.
 */
export const SAVE_AS_UTF8 =
  'save it as UTF-8: in Excel, Save As "CSV UTF-8 (Comma delimited)"; in LibreOffice, Save As "Text CSV" with "Edit filter settings" and Character set "Unicode (UTF-8)"';

/**
 * The text of a CSV file: UTF-8 (with or without a BOM), or UTF-16 when it starts with its byte
 * order mark (Excel's "Unicode Text"); else the problem, at the first line that is not UTF-8.
 */
export function decodeText(bytes: Buffer, file: string): string | Problem {
  // A workbook saved with a .csv name: xlsx and ods are zip files, xls an OLE2 compound file.
  if (
    bytes.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1")) ||
    bytes.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))
  ) {
    return {
      file,
      message: `this is a spreadsheet workbook, not a CSV file: ${SAVE_AS_UTF8.replace("save it as UTF-8", "save it as CSV")}`,
    };
  }
  // UTF-32 first: its little-endian byte order mark starts with UTF-16LE's.
  const utf32 = utf32Order(bytes);
  if (utf32 !== null)
    return {
      file,
      line: 1,
      message: `UTF-32 (${utf32}), which the catalogue does not read: ${SAVE_AS_UTF8}`,
    };
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "utf-16be"
        : null;
  try {
    // The decoders drop the byte order mark (parseCsv removes one too, for text from elsewhere).
    return new TextDecoder(utf16 ?? "utf-8", { fatal: true }).decode(bytes);
  } catch {
    if (utf16 !== null)
      return { file, line: 1, message: `invalid ${utf16.toUpperCase()}: ${SAVE_AS_UTF8}` };
    const { line, text } = firstInvalidLine(bytes);
    // What the line says read as Windows-1252 (what Excel's plain "CSV" writes in these locales): the word to look for.
    const latin = new TextDecoder("windows-1252").decode(text);
    // eslint-disable-next-line no-control-regex -- the first word with a character beyond ASCII
    const word = /[^\s,;]*[^\x00-\x7f][^\s,;]*/.exec(latin)?.[0].slice(0, 40);
    const hint = word === undefined ? "" : ` (${JSON.stringify(word)} if read as Windows-1252)`;
    return { file, line, message: `not UTF-8${hint}: ${SAVE_AS_UTF8}` };
  }
}

/**
 * "LE" or "BE" when the bytes are UTF-32: its byte order mark, or without one a first character
 * of three zero bytes and one that is not (no CSV text in UTF-8 or UTF-16 starts so).
 */
function utf32Order(bytes: Buffer): "LE" | "BE" | null {
  if (bytes.length < 4) return null;
  const [a, b, c, d] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if (
    (a === 0xff && b === 0xfe && c === 0 && d === 0) ||
    (a !== 0 && b === 0 && c === 0 && d === 0)
  )
    return "LE";
  if (
    (a === 0 && b === 0 && c === 0xfe && d === 0xff) ||
    (a === 0 && b === 0 && c === 0 && d !== 0)
  )
    return "BE";
  return null;
}

/** The first line (1-based) that is not valid UTF-8, and its bytes. */
function firstInvalidLine(bytes: Buffer): { line: number; text: Buffer } {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      const text = bytes.subarray(start, i);
      try {
        decoder.decode(text);
      } catch {
        return { line, text };
      }
      line++;
      start = i + 1;
    }
  }
  return { line: 1, text: bytes };
}
