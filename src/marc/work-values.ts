import { marcCountry, marcLanguage } from "./codes.ts";
import { text } from "./fields.ts";
import type { MarcWork } from "./marc-work.ts";

/**
 * A work's values as a record holds them: its languages and countries as MARC codes, the
 * languages its title may be in, its titles in other languages; and the memo the mapping keeps
 * of texts it makes often.
 */

/** The order of the catalogue's own languages among other titles; other tags follow in code order. */
const LANGUAGE_ORDER = ["es", "en", "ca", "gl", "eu", "va", "fr"];

/** `make` with its answers kept (up to 65,536: a catalogue has far fewer languages, lists and ratings). */
export function remembered<T>(make: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= 65_536) known.clear();
      known.set(key, (value = make(key)));
    }
    return value;
  };
}

/**
 * No values: what the helpers below give for none, one array for every record (most works have no
 * language columns), so that a record without them allocates nothing for them.
 */
const NONE: readonly never[] = Object.freeze([]);

/** The distinct MARC codes of some tags, in their order; tags without one left out. */
export const codesOf = (tags: readonly string[]): readonly string[] =>
  tags.length === 0 ? NONE : unique(tags.map(marcLanguage));

export function firstCountry(countries: readonly string[] | undefined): string | null {
  for (const iso of countries ?? []) {
    const code = marcCountry(iso);
    if (code !== null) return code;
  }
  return null;
}

export const languageTags = (tags: readonly string[] | undefined): readonly string[] =>
  tags === undefined || tags.length === 0
    ? NONE
    : tags.map(text).filter((tag): tag is string => tag !== null);

export function unique<T>(values: readonly (T | null)[]): readonly T[] {
  if (values.length === 0) return NONE;
  const found: T[] = [];
  for (const value of values) if (value !== null && !found.includes(value)) found.push(value);
  return found;
}

/**
 * The languages `title` may be in (MARC codes), for its initial article: the one given; else those
 * whose title it is; else the domain's and the first audio language's, counted only where both
 * agree (docs/exports.md#initial-articles-245s-second-indicator: a word that is an article in both is one whichever the title is in).
 */
export function titleLanguages(
  work: MarcWork,
  title: string,
  domainLanguage: string,
): readonly string[] {
  if (work.titleLanguage) return unique([marcLanguage(work.titleLanguage)]);
  if (work.titles !== undefined && work.titles !== null) {
    const named: (string | null)[] = [];
    for (const tag in work.titles)
      if (text(work.titles[tag]) === title) named.push(marcLanguage(tag));
    const codes = unique(named);
    if (codes.length > 0) return codes;
  }
  return defaultLanguages(`${domainLanguage}\n${languageTags(work.audioLanguages)[0] ?? ""}`);
}

/** The domain's and the first audio language's codes, by `domain\naudio` (a catalogue has few pairs). */
const defaultLanguages = remembered((key: string) => {
  const [domain, audio] = key.split("\n");
  return unique([marcLanguage(domain!), marcLanguage(audio!)]);
});

/** The titles in other languages that differ from `title` and from each other, as [language, title]. */
export function otherTitles(work: MarcWork, title: string): [string, string][] {
  if (work.titles === undefined || work.titles === null) return [];
  const rank = (tag: string) =>
    LANGUAGE_ORDER.includes(tag) ? LANGUAGE_ORDER.indexOf(tag) : LANGUAGE_ORDER.length;
  const tags = Object.keys(work.titles ?? {}).sort(
    (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const seen = new Set([title]);
  const result: [string, string][] = [];
  for (const tag of tags) {
    const other = text(work.titles[tag]);
    if (other === null || seen.has(other)) continue;
    seen.add(other);
    result.push([tag, other]);
  }
  return result;
}
