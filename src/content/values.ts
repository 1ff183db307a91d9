import { isRealDate } from "../util/dates.ts";

/**
 * Cells as spreadsheets write them back: a librarian who opens the CSV in Excel, edits a title
 * and saves gets every date and boolean re-written in the locale's words.
 */

const show = (value: unknown) => JSON.stringify(value);

/**
 * A calendar date that exists (2023-02-30 does not), as YYYY-MM-DD. Written YYYY-MM-DD, or day
 * first as DD/MM/YYYY (D/M/YYYY too), as Excel re-writes every date of a CSV it saves in the
 * Spanish, Catalan, Galician, French and British English locales, or YYYY/MM/DD (Basque). A
 * month-first date (US English) is refused: 03/04/2024 would silently be the wrong day.
 */
export function parseDate(cell: string): string | undefined {
  if (isRealDate(cell)) return cell;
  const dayFirst = DAY_FIRST.exec(cell);
  const yearFirst = dayFirst === null ? YEAR_FIRST.exec(cell) : null;
  if (dayFirst === null && yearFirst === null) return undefined;
  const [year, month, day] =
    dayFirst !== null
      ? [dayFirst[3]!, dayFirst[2]!, dayFirst[1]!]
      : [yearFirst![1]!, yearFirst![2]!, yearFirst![3]!];
  const iso = `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
  return isRealDate(iso) ? iso : undefined;
}
const DAY_FIRST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const YEAR_FIRST = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;

export function dateProblem(input: unknown): string {
  const text = String(input);
  const slashed = DAY_FIRST.exec(text);
  // 12/31/2024: a month-first date, which Excel writes in the US English locale.
  if (slashed !== null && Number(slashed[1]) <= 12 && Number(slashed[2]) > 12) {
    return `expected a date YYYY-MM-DD or day first DD/MM/YYYY, got ${show(text)}, which is month first: write ${slashed[2]}/${slashed[1]}/${slashed[3]} or ${slashed[3]}-${slashed[1]!.padStart(2, "0")}-${slashed[2]}`;
  }
  return `expected a date YYYY-MM-DD or DD/MM/YYYY (day first), got ${show(text)}`;
}

/**
 * true and false as written, and as Excel re-writes them in a CSV saved in each locale of the
 * catalogue's languages (TRUE/FALSE in English, VERDADERO/FALSO in Spanish, CERT/FALS in Catalan
 * and Valencian, VERDADEIRO/FALSO in Galician, EGIA/GEZURRA in Basque, VRAI/FAUX in French), in
 * any case.
 */
const BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  verdadero: true,
  falso: false,
  cert: true,
  fals: false,
  verdadeiro: true,
  egia: true,
  gezurra: false,
  vrai: true,
  faux: false,
};
export function parseBoolean(cell: string): boolean | undefined {
  const key = cell.toLowerCase();
  return Object.hasOwn(BOOLEANS, key) ? BOOLEANS[key] : undefined;
}
