import { iso31661 } from "iso-3166";
import { z } from "zod";
import type { Problem } from "../errors.ts";
import { LANGUAGES, oneLine, required, show, type Language } from "./cells.ts";
import { LIMITS, LINE_BREAK } from "./row-limits.ts";
import { closest } from "./suggest.ts";

/**
 * What a work adds for browsing and for the libraries' own catalogues (docs/interface.md#input):
 * the optional audiovisuals.csv columns `country`, `audio_languages`, `subtitle_languages`,
 * `age_rating`, `accessibility` and `name_es` … `name_fr`, gathered in one object that is absent
 * when none has a value. The site and the MARC records show it; the API and the spreadsheets do
 * not (the contract fixes them), so src/model/work-digests.ts keeps it out of the work digest.
 */
export interface WorkBrowse {
  /** The title in another language, shown on the pages of that language. */
  names?: Partial<Record<Language, string>>;
  /** ISO 3166-1 alpha-2 codes, upper case, in the order written. */
  countries?: string[];
  /** BCP 47 tags, canonical. */
  audio?: string[];
  subtitles?: string[];
  /** As the domain's rating scheme writes it (`TP`, `12`). */
  age?: string;
  /** In this fixed order. */
  accessibility?: AccessibilityFeature[];
}

export const ACCESSIBILITY_FEATURES = ["audio-description", "captions", "sign-language"] as const;
export type AccessibilityFeature = (typeof ACCESSIBILITY_FEATURES)[number];

export const NAME_COLUMNS = LANGUAGES.map((lang) => `name_${lang}` as const);
export type NameColumn = (typeof NAME_COLUMNS)[number];
export const BROWSE_COLUMNS = [
  "country",
  "audio_languages",
  "subtitle_languages",
  "age_rating",
  "accessibility",
  ...NAME_COLUMNS,
] as const;
export type BrowseColumn = (typeof BROWSE_COLUMNS)[number];

/** A cell's value, or the problem with it (one message for the cell). */
type Parsed<T> = { value: T } | { problem: string };

// Kosovo's code is user-assigned, so not in the standard's list, but in common use and named by ICU.
const COUNTRIES = new Set([...iso31661.map((entry) => entry.alpha2), "XK"]);
/** Spaces separate values; commas and semicolons are tolerated, as librarians write "ES, FR". */
const items = (cell: string) => [...new Set(cell.split(/[\s,;]+/).filter((item) => item !== ""))];

function parseCountries(cell: string): Parsed<string[]> {
  const codes = [...new Set(items(cell).map((code) => code.toUpperCase()))];
  if (codes.length === 0)
    return { problem: `expected country codes like ES, FR or US, got ${show(cell)}` };
  const unknown = codes.filter((code) => !COUNTRIES.has(code));
  if (unknown.length === 0) return { value: codes };
  const which = unknown.map((code) => show(code)).join(", ");
  return {
    problem: `${which} ${unknown.length === 1 ? "is not an ISO 3166-1 country code" : "are not ISO 3166-1 country codes"}: write two letters like ES, FR or US, several separated by spaces`,
  };
}

function parseLanguages(cell: string): Parsed<string[]> {
  const tags: string[] = [];
  const written = items(cell);
  if (written.length === 0) written.push(cell); // separators only: the tag check words it
  for (const item of written) {
    // `va` is how the Valencian administration writes its language; BCP 47 has it as ca-valencia.
    const bcp47 = item.toLowerCase() === "va" ? "ca-valencia" : item;
    let tag: string;
    try {
      [tag] = Intl.getCanonicalLocales(bcp47) as [string];
    } catch {
      return {
        problem: `expected language tags like es, en-GB or ca-valencia separated by spaces, got ${show(cell)}`,
      };
    }
    if (!tags.includes(tag)) tags.push(tag);
  }
  return { value: tags };
}

const AGE = /^[\p{L}\p{N}+\-/]{1,12}$/u;
function parseAge(cell: string): Parsed<string> {
  return AGE.test(cell)
    ? { value: cell }
    : {
        problem: `expected one rating as your scheme writes it (TP, 7, 12, 16, 18), got ${show(cell)}`,
      };
}

function parseAccessibility(cell: string): Parsed<AccessibilityFeature[]> {
  const written = items(cell).map((item) => item.toLowerCase());
  if (written.length === 0) written.push(cell);
  for (const item of written) {
    if ((ACCESSIBILITY_FEATURES as readonly string[]).includes(item)) continue;
    const meant = closest(item, ACCESSIBILITY_FEATURES);
    return {
      problem: `unknown feature ${show(item)}${meant === undefined ? "" : `: did you mean ${show(meant)}?`} (${ACCESSIBILITY_FEATURES.join(", ")})`,
    };
  }
  return { value: ACCESSIBILITY_FEATURES.filter((feature) => written.includes(feature)) };
}

/** A zod cell of the parser's rules: the parser's problem is the cell's message. */
const cellOf = <T>(parse: (cell: string) => Parsed<T>) =>
  required().transform((text, ctx): T => {
    const parsed = parse(text);
    if ("problem" in parsed) {
      ctx.addIssue({ code: "custom", message: parsed.problem });
      return z.NEVER;
    }
    return parsed.value;
  });

const nameColumns = Object.fromEntries(
  NAME_COLUMNS.map((column) => [column, oneLine().nullable()]),
) as unknown as Record<NameColumn, z.ZodNullable<ReturnType<typeof oneLine>>>;

/** The zod pieces of audiovisualRow's shape (src/content/schema.ts). */
export const browseColumns = {
  country: cellOf(parseCountries).nullable(),
  audio_languages: cellOf(parseLanguages).nullable(),
  subtitle_languages: cellOf(parseLanguages).nullable(),
  age_rating: cellOf(parseAge).nullable(),
  accessibility: cellOf(parseAccessibility).nullable(),
  ...nameColumns,
};

/** The columns' values as the schema gives them: null for an empty cell. */
export interface BrowseCells {
  country: string[] | null;
  audio_languages: string[] | null;
  subtitle_languages: string[] | null;
  age_rating: string | null;
  accessibility: AccessibilityFeature[] | null;
  names: Partial<Record<NameColumn, string | null>>;
}

/** The one object a work's browsing columns make; undefined when no column has a value. */
export function gatherBrowse(cells: BrowseCells): WorkBrowse | undefined {
  let names: WorkBrowse["names"];
  for (const lang of LANGUAGES) {
    const name = cells.names[`name_${lang}`];
    if (name != null) (names ??= {})[lang] = name;
  }
  const browse: WorkBrowse = {
    ...(names !== undefined ? { names } : {}),
    ...(cells.country !== null ? { countries: cells.country } : {}),
    ...(cells.audio_languages !== null ? { audio: cells.audio_languages } : {}),
    ...(cells.subtitle_languages !== null ? { subtitles: cells.subtitle_languages } : {}),
    ...(cells.age_rating !== null ? { age: cells.age_rating } : {}),
    ...(cells.accessibility !== null ? { accessibility: cells.accessibility } : {}),
  };
  return Object.keys(browse).length === 0 ? undefined : browse;
}

/**
 * The fast check's twin of the schema's columns (src/content/fast-rows.ts): the browsing object of a
 * valid row (undefined when it has none), or `false` when a cell is not valid.
 */
export function fastBrowse(c: Record<string, string | null>): WorkBrowse | undefined | false {
  let any = false;
  for (const column of BROWSE_COLUMNS) if (c[column] != null) any = true;
  if (!any) return undefined;
  const list = <T>(cell: string | null | undefined, parse: (cell: string) => Parsed<T>) => {
    if (cell == null) return null;
    const parsed = parse(cell);
    return "problem" in parsed ? undefined : parsed.value;
  };
  const cells = {
    country: list(c.country, parseCountries),
    audio_languages: list(c.audio_languages, parseLanguages),
    subtitle_languages: list(c.subtitle_languages, parseLanguages),
    age_rating: list(c.age_rating, parseAge),
    accessibility: list(c.accessibility, parseAccessibility),
  };
  const names: BrowseCells["names"] = {};
  for (const column of NAME_COLUMNS) {
    const name = c[column];
    if (name == null) continue;
    if (name.length > LIMITS.oneLine || LINE_BREAK.test(name)) return false;
    names[column] = name;
  }
  if (Object.values(cells).includes(undefined)) return false;
  return gatherBrowse({ ...(cells as Omit<BrowseCells, "names">), names });
}

/**
 * Well-formed language tags ICU cannot name (a rare or private-use language): a warning, not an
 * error, so one unusual tag never stops the nightly build; the pages show the tag itself.
 */
export function unnamedLanguages(
  works: readonly { line: number; value: { browse?: WorkBrowse } }[],
  file: string,
  warnings: Problem[],
): void {
  const names = new Intl.DisplayNames("en", { type: "language", fallback: "none" });
  const known = new Map<string, boolean>();
  const isKnown = (tag: string) => {
    let yes = known.get(tag);
    if (yes === undefined) known.set(tag, (yes = names.of(tag) !== undefined));
    return yes;
  };
  for (const { line, value } of works) {
    for (const [column, tags] of [
      ["audio_languages", value.browse?.audio],
      ["subtitle_languages", value.browse?.subtitles],
    ] as const) {
      for (const tag of tags ?? [])
        if (!isKnown(tag))
          warnings.push({
            file,
            line,
            column,
            message: `${show(tag)} is a language tag the site cannot name`,
            otherwise: "shown as the tag",
          });
    }
  }
}
