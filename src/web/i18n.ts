import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { AudiovisualType, Language, Ordering } from "../content/schema.ts";
import type { ExportKind } from "../api/layout.ts";
import { PACKAGE_ROOT } from "../program.ts";
import { interfaceLanguage } from "../content/languages.ts";

/**
 * Interface text, in the seven languages of the data: every word the site, the feed, the
 * offline copy and the spreadsheets show. The words are in `i18n/<lang>.json` at the package's
 * root, read when first needed (not compiled in: a translator edits a JSON file), the same keys in
 * every file. A value is a string with `{name}` placeholders, or, where a count decides the
 * form, an object of Intl.PluralRules categories (`one`, `other`, …; `other` when the language's
 * category for the count is missing). Numbers are written by Intl.NumberFormat, dates by
 * Intl.DateTimeFormat, both in the interface's language.
 *
 * Valencian (`va`) is not a tag browsers, screen readers, axe or Intl know (Intl reads
 * `va` as an unknown language and falls back to English): it is written `ca-valencia` wherever a
 * tag is read by something else than this program, and its texts fall back to Catalan's, then to
 * Spanish's. Every other language falls back to Spanish.
 */

/** Where the texts are: `i18n/` beside package.json (the sources' root, or the installed package's). */
export const TEXTS_DIR = path.join(PACKAGE_ROOT, "i18n");

/** A text: one string, or one per plural category. */
export type Text = string | Partial<Record<Intl.LDMLPluralRule, string>>;
export type Texts = Record<string, Text>;

/** The BCP 47 tag of an interface language, as `lang` and Intl read it. */
export const languageTag = (code: Language): string => (code === "va" ? "ca-valencia" : code);

/** The order in which a language's texts (and its biographies, src/site/biography.ts) are looked for. */
export const fallbackOrder = (code: Language): Language[] =>
  code === "es" ? ["es"] : code === "va" ? ["va", "ca", "es"] : [code, "es"];

export { interfaceLanguage };

export interface Strings {
  /** The interface language, as this program names it. */
  code: Language;
  /** Its BCP 47 tag (`ca-valencia` for `va`): `<html lang>`, Intl. */
  lang: string;
  /** A digest of the texts, fallbacks included: part of the keys of everything that shows them. */
  digest: string;
  /** The language's own name, in the language switcher. */
  languageName: string;
  languages: string;
  skip: string;
  catalogue: string;
  works: (count: number) => string;
  orderBy: string;
  orderings: Record<Ordering, string>;
  pagination: string;
  previous: string;
  next: string;
  pageOf: (page: number, total: number) => string;
  searchLabel: string;
  searchButton: string;
  searchNone: string;
  searchCount: (count: number) => string;
  empty: string;
  isNew: string;
  director: string;
  category: string;
  year: string;
  duration: string;
  minutes: (n: number) => string;
  availableFrom: string;
  availableUntil: string;
  noEnd: string;
  json: string;
  about: (name: string) => string;
  worksOf: string;
  cover: (title: string) => string;
  photo: (name: string) => string;
  downloads: string;
  exports: Record<ExportKind, string>;
  categories: Record<AudiovisualType, string>;
  notFound: string;
  notFoundText: string;
  backHome: string;
  /** Label of the breadcrumb trail. */
  breadcrumb: string;
  /** The Atom feed of new works: its title, and the footer's link to it. */
  feedTitle: (library: string) => string;
  feedLink: string;
  /** Meta descriptions (src/site/page-meta.ts). */
  describeListing: (library: string, count: number, ordering: string) => string;
  describeCategory: (label: string, library: string, count: number) => string;
  describeDirector: (name: string, library: string, count: number) => string;
  /** A text by its key, placeholders filled (numbers in `values` written in the language). */
  format: (key: string, values?: Record<string, string | number>) => string;
}

const files = new Map<Language, Texts>();

/** The texts of one language's file, as written (no fallback). */
export function languageTexts(code: Language): Texts {
  let texts = files.get(code);
  if (texts === undefined) {
    const file = path.join(TEXTS_DIR, `${code}.json`);
    texts = JSON.parse(readFileSync(file, "utf8")) as Texts;
    files.set(code, texts);
  }
  return texts;
}

/** A language's texts with its fallbacks filled in: what its pages show. */
export function resolvedTexts(code: Language): Texts {
  const texts: Texts = {};
  for (const lang of fallbackOrder(code).reverse()) Object.assign(texts, languageTexts(lang));
  return texts;
}

const cache = new Map<Language, Strings>();

/** The interface of a domain's locale: its own language's, or Spanish. */
export const stringsFor = (locale: string): Strings => stringsOf(interfaceLanguage(locale) ?? "es");

export function stringsOf(code: Language): Strings {
  let strings = cache.get(code);
  if (strings === undefined)
    cache.set(code, (strings = stringsFromTexts(code, resolvedTexts(code))));
  return strings;
}

/** The interface of a language from its texts (fallbacks already filled in). */
export function stringsFromTexts(code: Language, texts: Texts): Strings {
  const lang = languageTag(code);
  const plurals = new Intl.PluralRules(lang);
  const numbers = new Intl.NumberFormat(lang);
  const format = (key: string, values: Record<string, string | number> = {}): string => {
    const text = Object.hasOwn(texts, key) ? texts[key] : undefined;
    if (text === undefined)
      throw new Error(`bug: no interface text "${key}" in ${code}.json nor in its fallbacks`);
    const count = values.n;
    const chosen =
      typeof text === "string"
        ? text
        : ((typeof count === "number" ? text[plurals.select(count)] : undefined) ?? text.other);
    if (chosen === undefined)
      throw new Error(`bug: the interface text "${key}" of ${code} has no "other" form`);
    // Only the values given: a placeholder named like an object's property (`{constructor}`) is
    // not one of them.
    return chosen.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = Object.hasOwn(values, name) ? values[name] : undefined;
      return value === undefined
        ? whole
        : typeof value === "number"
          ? numbers.format(value)
          : value;
    });
  };
  const t = (key: string) => format(key);
  const record = <K extends string>(prefix: string, keys: readonly K[]) =>
    Object.fromEntries(keys.map((k) => [k, t(`${prefix}.${k}`)])) as Record<K, string>;
  const works = (n: number) => format("works", { n });
  return {
    code,
    lang,
    digest: createHash("md5")
      .update(JSON.stringify([code, Object.entries(texts).sort(([a], [b]) => (a < b ? -1 : 1))]))
      .digest("hex"),
    languageName: t("languageName"),
    languages: t("languages"),
    skip: t("skip"),
    catalogue: t("catalogue"),
    works,
    orderBy: t("orderBy"),
    orderings: record("orderings", ["name", "-name", "year", "-year"]),
    pagination: t("pagination"),
    previous: t("previous"),
    next: t("next"),
    pageOf: (page, total) => format("pageOf", { page, total }),
    searchLabel: t("search.label"),
    searchButton: t("search.button"),
    searchNone: t("search.none"),
    searchCount: (n) => format("search.count", { n }),
    empty: t("empty"),
    isNew: t("isNew"),
    director: t("director"),
    category: t("category"),
    year: t("year"),
    duration: t("duration"),
    minutes: (n) => format("minutes", { n }),
    availableFrom: t("availableFrom"),
    availableUntil: t("availableUntil"),
    noEnd: t("noEnd"),
    json: t("json"),
    about: (name) => format("about", { name }),
    worksOf: t("worksOf"),
    cover: (title) => format("cover", { title }),
    photo: (name) => format("photo", { name }),
    downloads: t("downloads"),
    exports: record("exports", ["export_excel", "export_up_movies", "export_down_movies"]),
    categories: record("categories", [
      "peliculas",
      "documentales",
      "cortometrajes",
      "artes-escenicas",
    ]),
    notFound: t("notFound"),
    notFoundText: t("notFoundText"),
    backHome: t("backHome"),
    breadcrumb: t("breadcrumb"),
    feedTitle: (library) => format("feed.title", { library }),
    feedLink: t("feed.link"),
    describeListing: (library, n, ordering) =>
      format("describe.listing", { library, works: works(n), ordering }),
    describeCategory: (label, library, n) =>
      format("describe.category", { label, library, works: works(n) }),
    describeDirector: (name, library, n) =>
      format("describe.director", { name, library, works: works(n) }),
    format,
  };
}

/**
 * A domain's locale as a tag others read (`lang` attributes, Intl): Valencian's `va` is written
 * `ca-valencia`, its region kept (`va-ES` → `ca-ES-valencia`); any other tag as it is.
 */
export function localeTag(locale: string): string {
  const [language, ...rest] = locale.split("-");
  return language?.toLowerCase() === "va" ? ["ca", ...rest, "valencia"].join("-") : locale;
}

/** A day written YYYY-MM-DD, in words of the interface language (UTC: no time zone shifts). */
export function formatDay(day: string, strings: Strings): string {
  // Thousands of works share a few hundred dates: format each once.
  const key = strings.lang + day;
  let text = days.get(key);
  if (text === undefined)
    days.set(key, (text = dayFormat(strings.lang).format(new Date(`${day}T00:00:00Z`))));
  return text;
}

const days = new Map<string, string>();
const formats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(lang: string) {
  let format = formats.get(lang);
  if (format === undefined)
    formats.set(
      lang,
      (format = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" })),
    );
  return format;
}
