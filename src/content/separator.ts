/**
 * The separator of a CSV file, guessed from its header line, and what a problem adds when the
 * guess may be the cause. csv.ts reads with it.
 */

/**
 * What a problem that may come of the separator guess adds, when the header held commas too
 * and yet another separator won: why the file was read so (the problem is then perhaps the
 * guess, not the cells).
 */
export function guessNote(delimiter: Delimiter, counts: SeparatorCounts): string {
  if (delimiter === "," || counts[","] === 0) return "";
  return delimiter === ";"
    ? ` (read as ;-separated because its header has more ; than , outside quotes: ${counts[";"]} against ${counts[","]})`
    : ` (read as tab-separated because its header has more tabs than , and ; outside quotes)`;
}

/** The separators a spreadsheet writes: "," (English locales), ";" (where "," is the decimal mark), tab (Excel's "Unicode text"). */
export type Delimiter = "," | ";" | "\t";

/**
 * The separator of a file, read off its header line: the one that occurs there most outside
 * quotes is it (a comma on a tie), since a known column name holds none. Excel in the Spanish,
 * Catalan, Galician, Basque and French locales saves "CSV" with semicolons.
 */
export function detectDelimiter(text: string): Delimiter {
  return delimiterOf(headerCounts(text));
}

export type SeparatorCounts = Record<Delimiter, number>;

/** How many of each separator the header line holds outside quotes (a quoted name may hold any, and line breaks). */
export function headerCounts(text: string): SeparatorCounts {
  const counts: SeparatorCounts = { ",": 0, ";": 0, "\t": 0 };
  const start = text.search(/[^\n]/);
  if (start === -1) return counts;
  let quoted = false;
  for (let at = start; at < text.length; at++) {
    const c = text[at]!;
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === "\n") break;
    else if (c === "," || c === ";" || c === "\t") counts[c]++;
  }
  return counts;
}

export function delimiterOf(counts: SeparatorCounts): Delimiter {
  const [commas, semicolons, tabs] = [counts[","], counts[";"], counts["\t"]];
  if (semicolons > commas && semicolons >= tabs) return ";";
  if (tabs > commas && tabs > semicolons) return "\t";
  return ",";
}

export const DELIMITER_NAMES: Record<Delimiter, string> = {
  ",": "commas",
  ";": "semicolons",
  "\t": "tabs",
};
