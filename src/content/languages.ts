import type { Problem } from "../errors.ts";
import { LANGUAGES, type Domain, type Language } from "./schema.ts";

/**
 * The interface language of a locale (a BCP 47 tag): one of the seven languages of the data, or
 * null when it has none of its own (the site then speaks Spanish). `ca-valencia` and
 * `ca-ES-valencia`, the tags browsers know for Valencian, are Valencian like `va`.
 */
export function interfaceLanguage(locale: string): Language | null {
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
 * Warns of every domain whose locale is a valid tag outside the seven languages: its catalogue
 * keeps building, with the Spanish interface, and the warning says which languages have one.
 */
export function checkLocales(domains: readonly { line: number; value: Domain }[], file: string, warnings: Problem[]): void {
  for (const { line, value } of domains) {
    if (interfaceLanguage(value.locale) !== null) continue;
    warnings.push({
      file,
      line,
      column: "locale",
      message: `no interface in ${JSON.stringify(value.locale)}: its pages use the Spanish one (interfaces: ${LANGUAGES.join(", ")}; a region may follow, as in "es-ES")`,
    });
  }
}
