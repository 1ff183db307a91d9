import type { Problem } from "../errors.ts";
import { LANGUAGES, type Domain, type Language } from "./schema.ts";

const interfaceLanguages = new Map<string, Language | null>();

/**
 * The interface language of a locale (a BCP 47 tag): one of the seven languages of the data, or
 * null when it has none of its own (the site then speaks Spanish). `ca-valencia` and
 * `ca-ES-valencia`, the tags browsers know for Valencian, are Valencian like `va`.
 */
export function interfaceLanguage(locale: string): Language | null {
  // Asked for on every page (its strings, its biography) of a handful of tags: parsing a tag
  // with Intl.Locale each time was a visible share of a site build.
  let known = interfaceLanguages.get(locale);
  if (known === undefined) interfaceLanguages.set(locale, (known = parseInterfaceLanguage(locale)));
  return known;
}
function parseInterfaceLanguage(locale: string): Language | null {
  let language: string;
  try {
    language = new Intl.Locale(locale).language.toLowerCase();
  } catch {
    return null;
  }
  if (language === "ca" && /(^|-)valencia(-|$)/i.test(locale)) return "va";
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : null;
}

/**
 * The language a site version is known by: its interface language among the seven, else its
 * tag in lowercase. Two tags with the same one (`ca` and `ca-ES`) would be the same site.
 */
export const siteLanguage = (tag: string): string => interfaceLanguage(tag) ?? tag.toLowerCase();

const noInterface = (tag: string) =>
  `no interface in ${JSON.stringify(tag)}: its pages use the Spanish one (interfaces: ${LANGUAGES.join(", ")}; a region may follow, as in "es-ES")`;

/**
 * Checks the languages of every domain. A valid tag outside the seven languages (locale or
 * other language) is a warning: its catalogue keeps building, with the Spanish interface, and
 * the warning says which languages have one. A language listed twice, or that is the locale's,
 * is an error.
 */
export function checkLanguages(domains: readonly { line: number; value: Domain }[], file: string, problems: Problem[], warnings: Problem[]): void {
  for (const { line, value } of domains) {
    if (interfaceLanguage(value.locale) === null) warnings.push({ file, line, column: "locale", message: noInterface(value.locale) });
    const seen = new Map<string, string>([[siteLanguage(value.locale), `the locale ${JSON.stringify(value.locale)}`]]);
    for (const tag of value.languages ?? []) {
      const language = siteLanguage(tag);
      const earlier = seen.get(language);
      if (earlier !== undefined) {
        problems.push({ file, line, column: "languages", message: `${JSON.stringify(tag)} is the same language as ${earlier}: list each other language once, without the locale's` });
        continue;
      }
      seen.set(language, JSON.stringify(tag));
      if (interfaceLanguage(tag) === null) warnings.push({ file, line, column: "languages", message: noInterface(tag) });
    }
  }
}
