import { isRealDate } from "../util/dates.ts";
import { fastBrowse } from "./browse-columns.ts";
import { INTEGER, LIMITS, LINE_BREAK, POSITIVE_INT } from "./row-limits.ts";
import { parseBoolean, parseDate } from "./values.ts";
import {
  AUDIOVISUAL_TYPES,
  SLUG_PATTERN,
  SYNOPSIS_COLUMNS,
  synopsisKey,
  type Audiovisual,
  type Availability,
  type Director,
  type Synopses,
} from "./schema.ts";

/**
 * The same checks written out for the files with a row per work, per director or per window (tens
 * of thousands of rows, where zod's per-cell bookkeeping dominated loading). Each returns exactly
 * what its schema returns for a valid row, and undefined for any other row, which then goes through
 * the schema: zod stays the reference and words every problem. test/content/schema.unit.test.ts holds
 * the two equal.
 */
type Cells = Record<string, string | null>;
type Check<T> = (cell: string) => T | undefined; // undefined: not valid

const fastPositiveInt: Check<number> = (cell) =>
  POSITIVE_INT.test(cell) ? Number(cell) : undefined;
const fastIntBetween =
  ([min, max]: readonly [number, number]): Check<number> =>
  (cell) => {
    const n = INTEGER.test(cell) ? Number(cell) : NaN;
    return n >= min && n <= max ? n : undefined;
  };
const fastMax =
  (max: number): Check<string> =>
  (cell) =>
    cell.length <= max ? cell : undefined;
const fastOneLine: Check<string> = (cell) =>
  cell.length <= LIMITS.oneLine && !LINE_BREAK.test(cell) ? cell : undefined;
const fastSlug: Check<string> = (cell) =>
  cell.length <= LIMITS.slug && SLUG_PATTERN.test(cell) ? cell : undefined;
const fastOneOf =
  <T extends string>(values: readonly T[]): Check<T> =>
  (cell) =>
    (values as readonly string[]).includes(cell) ? (cell as T) : undefined;
const fastDate: Check<string> = (cell) => (isRealDate(cell) ? cell : parseDate(cell));
const fastBoolean: Check<boolean> = (cell) =>
  cell === "true" ? true : cell === "false" ? false : parseBoolean(cell);
const fastYear = fastIntBetween(LIMITS.year);
const fastDuration = fastIntBetween(LIMITS.duration);
const fastStatus = fastIntBetween(LIMITS.status);
const fastType = fastOneOf(AUDIOVISUAL_TYPES);
const fastImagePath = fastMax(LIMITS.imagePath);
const fastLongText = fastMax(LIMITS.longText);

/** A required cell: absent is not valid. */
const must = <T>(cell: string | null | undefined, check: Check<T>) =>
  cell == null ? undefined : check(cell);
/** An optional cell: absent reads as `empty`. */
const may = <T, E = null>(
  cell: string | null | undefined,
  check: Check<T>,
  empty: E = null as E,
) => (cell == null ? empty : check(cell));

export function fastAudiovisual(c: Cells): Audiovisual | undefined {
  const row = {
    id: must(c.id, fastPositiveInt),
    name: must(c.name, fastOneLine),
    slug: must(c.slug, fastSlug),
    audiovisual_type: may(c.audiovisual_type, fastType),
    director_id: may(c.director_id, fastPositiveInt),
    year: may(c.year, fastYear),
    duration: may(c.duration, fastDuration),
    cover: must(c.cover, fastImagePath),
    status_global: may(c.status_global, fastStatus, 1),
  };
  if (!allDefined(row)) return undefined;
  // What withSynopses makes of the columns, without an object per row for the many without any.
  let synopses: Synopses | undefined;
  for (const column of SYNOPSIS_COLUMNS) {
    const text = c[column];
    if (text == null) continue;
    if (fastLongText(text) === undefined) return undefined;
    (synopses ??= {})[synopsisKey(column)] = text;
  }
  const withText = synopses === undefined ? row : { ...row, synopses };
  const browse = fastBrowse(c);
  if (browse === false) return undefined;
  return browse === undefined ? withText : { ...withText, browse };
}

export function fastDirector(c: Cells): Director | undefined {
  const row = {
    id: must(c.id, fastPositiveInt),
    name: must(c.name, fastOneLine),
    slug: must(c.slug, fastSlug),
    photo: may(c.photo, fastImagePath),
    show_img: may(c.show_img, fastBoolean, false),
    description: may(c.description, fastLongText),
    description_es: may(c.description_es, fastLongText),
    description_en: may(c.description_en, fastLongText),
    description_ca: may(c.description_ca, fastLongText),
    description_gl: may(c.description_gl, fastLongText),
    description_eu: may(c.description_eu, fastLongText),
    description_va: may(c.description_va, fastLongText),
    description_fr: may(c.description_fr, fastLongText),
  };
  if (!allDefined(row)) return undefined;
  if (c.heading == null) return row;
  const heading = fastOneLine(c.heading);
  return heading === undefined ? undefined : { ...row, heading };
}

export function fastAvailability(c: Cells): Availability | undefined {
  const row = {
    audiovisual_id: must(c.audiovisual_id, fastPositiveInt),
    domain: c.domain ?? undefined, // any text: domains.csv must name it, checked later
    available_from: must(c.available_from, fastDate),
    available_until: may(c.available_until, fastDate),
  };
  return allDefined(row) ? row : undefined;
}

function allDefined<T extends object>(row: T): row is { [K in keyof T]: Exclude<T[K], undefined> } {
  for (const key in row) if (row[key] === undefined) return false;
  return true;
}
