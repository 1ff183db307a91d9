import { UserError } from "../errors.ts";

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date, so that windows are whole-day arithmetic. */
export function dayNumber(date: string): number {
  // Every domain's view asks for each work's two dates, and a catalogue has few distinct dates.
  let day = dayNumbers.get(date);
  if (day === undefined) {
    day =
      Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) /
      DAY_MS;
    if (dayNumbers.size >= DAY_NUMBERS_KEPT) dayNumbers.clear();
    dayNumbers.set(date, day);
  }
  return day;
}

const dayNumbers = new Map<string, number>();
/** Distinct dates remembered (a century of days); past it the memory starts again. */
const DAY_NUMBERS_KEPT = 36_525;

export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The build date T: `--date`, else SOURCE_DATE_EPOCH (reproducible builds), else today in UTC. */
export function resolveBuildDate(
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  now = new Date(),
): string {
  if (option !== undefined) {
    if (!isRealDate(option))
      throw new UserError(`--date: expected a date YYYY-MM-DD, got ${JSON.stringify(option)}`);
    return option;
  }
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== "") {
    if (!/^\d{1,12}$/.test(epoch))
      throw new UserError(
        `SOURCE_DATE_EPOCH: expected seconds since 1970, got ${JSON.stringify(epoch)}`,
      );
    return new Date(Number(epoch) * 1000).toISOString().slice(0, 10);
  }
  return now.toISOString().slice(0, 10);
}

/** A calendar date written YYYY-MM-DD that exists (2023-02-30 does not). */
export function isRealDate(text: string): boolean {
  // Written out rather than a regex and a Date: it runs for every availability row.
  if (text.length !== 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH)
    return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  // Years 0-99 are refused: this check once went through Date.UTC, which reads them as 1900-1999.
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]!);
}

const DASH = 0x2d;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the ASCII digits text[from..to), or -1 if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
