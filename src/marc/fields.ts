import { dropForbidden, type ControlField, type DataField, type Subfield } from "./record.ts";

/**
 * The pieces of a record built from a work's values: text made fit for a field, the fixed-length
 * fields (007, 008), the added entry of a director.
 */

/** White space a field cannot hold (MARC::Lint refuses tabs and line breaks) and runs of it. */
const BREAKS = /[\t\n\v\f\r \u0085\u2028\u2029]+/g;
/** What may need more than a trim: a control character, a break, a surrogate or a noncharacter (or two spaces). */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNUSUAL = /[\x00-\x1f\u0085\u2028\u2029\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]/;

/** A value as a field holds it: one line, trimmed, without what XML forbids; null when empty. */
export function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const cleaned = (
    UNUSUAL.test(value) || value.includes("  ") ? dropForbidden(value).replace(BREAKS, " ") : value
  ).trim();
  return cleaned === "" ? null : cleaned;
}

/** `value` ended with a period unless it already ends with one of `marks` (ISBD's final punctuation). */
export const ended = (value: string, marks = ".?!"): string =>
  marks.includes(value.at(-1)!) ? value : `${value}.`;

export const control = (tag: string, value: string): ControlField => ({ tag, value });

/** A data field: its tag, its two indicators as one string, then each subfield's code and value. */
export function data(tag: string, indicators: string, ...codesAndValues: string[]): DataField {
  const subfields: Subfield[] = [];
  for (let i = 0; i < codesAndValues.length; i += 2)
    subfields.push({ code: codesAndValues[i]!, value: codesAndValues[i + 1]! });
  return { tag, ind1: indicators[0]!, ind2: indicators[1]!, subfields };
}

/**
 * 007 for an online resource, then for a videorecording (both, as streaming video is catalogued:
 * discovery layers tell "online" from the first and "video" from the second). What the catalogue
 * does not say (colour, sound, formats) is `u`, unknown.
 *
 * cr unu---uuuuu: electronic resource, remote; colour unknown; dimensions not applicable; sound,
 *   bit depth, file formats, quality targets, antecedent, compression, reformatting unknown.
 * vz uzuuzu: videorecording, other material (no carrier); colour unknown; format other; sound,
 *   its medium unknown; dimensions other; playback channels unknown.
 */
export const PHYSICAL_DESCRIPTIONS = ["cr unu---uuuuu", "vz uzuuzu"] as const;

export interface FixedValues {
  /** YYYY-MM-DD: the date the record was first entered (00-05). */
  entered: string;
  year: number | null;
  /** A MARC country code, or null. */
  country: string | null;
  minutes: number | null;
  /** A MARC language code, or null. */
  language: string | null;
  shortened: boolean;
}

/**
 * 008 for visual materials. Unknown values are those MARC prescribes: date type `n` with `uuuu`,
 * place `xx`, running time `---`, language blanks (no information). Target audience is blank:
 * the domain's age ratings follow schemes MARC's codes do not map to.
 */
export function fixedLengthData(values: FixedValues): string {
  const date =
    values.year !== null && values.year >= 1000 && values.year <= 9999
      ? `s${values.year}    `
      : "nuuuuuuuu";
  const running =
    values.minutes === null || values.minutes <= 0
      ? "---"
      : values.minutes > 999
        ? "000"
        : String(values.minutes).padStart(3, "0");
  const entered = values.entered.slice(2).replaceAll("-", ""); // YYMMDD
  const place = (values.country ?? "xx").padEnd(3, " ");
  const language = values.language ?? "   ";
  // 00-05 entered, 06-14 dates, 15-17 place, 18-20 running time; 21 undefined, 22 target audience
  // not specified, 23-27 undefined, 28 government publication not coded (|), 29 form of item
  // online (o), 30-32 undefined, 33 videorecording (v), 34 technique unknown (u); 35-37 language,
  // 38 modified record (s: shortened), 39 cataloguing source other (d). One template, not a
  // string made for each piece joined.
  const field = `${entered}${date}${place}${running}       |o   vu${language}${values.shortened ? "s" : " "}d`;
  if (field.length !== 40) throw new Error(`008 must be 40 characters: ${JSON.stringify(field)}`);
  return field;
}

/** The dates of a heading, after a comma (`1861-1938`, `1949-`) or in parentheses (BNE's `(1900-1983)`). */
const DATES =
  /^(.*\S)(,\s*((?:approximately |active |born |died |ca\. |b\. |d\. |fl\. )?\d{3,4}\??-?(?:\d{3,4}\??)?)|\s+(\(\d{3,4}\??-?(?:\d{3,4}\??)?\)))$/;

/**
 * 700 of a director: the heading (`Méliès, Georges, 1861-1938`) or else the name as written,
 * with its dates in $d. First indicator 1 (surname) when the heading is inverted (it has a
 * comma before any dates), else 0 (a name in direct order). Relator: `relator` in $e, `drt` in $4.
 */
export function directorField(heading: string, relator: string): DataField {
  const match = DATES.exec(heading);
  const name = match === null ? heading : match[1]!;
  const dates = match === null ? null : (match[3] ?? match[4]!);
  const indicators = name.includes(",") ? "1 " : "0 ";
  if (dates === null)
    return data("700", indicators, "a", comma(name), "e", ended(relator), "4", "drt");
  return data(
    "700",
    indicators,
    "a",
    match![3] === undefined ? name : comma(name),
    "d",
    dates.endsWith("-") ? dates : comma(dates),
    "e",
    ended(relator),
    "4",
    "drt",
  );
}

const comma = (value: string) => (value.endsWith(",") ? value : `${value},`);
