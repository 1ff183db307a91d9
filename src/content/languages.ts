import type { Problem } from "../errors.ts";
import { isProductPath } from "../util/product-paths.ts";
import { OwnerTable, type SitePaths } from "./owners.ts";
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
 * Why a language tag cannot name a version of a site, or null when it can: its folder is its
 * interface language, or else the tag in lowercase, so a tag must be one of the seven or start
 * with a language of 2 or 3 letters (`media`, `assets`, `director`, `browse` are valid tags of
 * 5 to 8 letters), and not be a folder of the catalogue's own (`api`, `new`).
 */
function folderProblem(tag: string): string | null {
  const folder = siteLanguage(tag);
  if (interfaceLanguage(tag) === null) {
    let primary = "";
    try {
      primary = new Intl.Locale(tag).language;
    } catch {
      // not a tag: the schema said so
    }
    if (!/^[a-z]{2,3}$/i.test(primary))
      return `${JSON.stringify(tag)} cannot name a version of the site (its folder, ${JSON.stringify(`${folder}/`)}): a language tag starts with a language of 2 or 3 letters, like "de", "gsw" or "pt-BR"`;
  }
  if (isProductPath(folder))
    return `${JSON.stringify(tag)} would put a version of the site in ${JSON.stringify(`${folder}/`)}, a folder of the catalogue's own: leave it out`;
  return null;
}

/** The folders of a domain's language versions (its problems aside): what content/owners.ts checks. */
export const languageFolders = (domain: Pick<Domain, "languages">): string[] =>
  (domain.languages ?? []).filter((tag) => folderProblem(tag) === null).map(siteLanguage);

/** A domain's paths for content/owners.ts. */
export const sitePaths = (domain: Domain, line?: number): SitePaths => ({
  domain: domain.domain,
  base_url: domain.base_url,
  media_url: domain.media_url,
  folders: languageFolders(domain),
  ...(line !== undefined ? { line } : {}),
});

/**
 * Checks the languages of every domain, and who owns each path of their hosts
 * (content/owners.ts). A valid tag outside the seven languages (locale or other language) is a
 * warning: its catalogue keeps building, with the Spanish interface, and the warning says which
 * languages have one. A language listed twice, or that is the locale's, or that cannot name a
 * folder, is an error.
 */
export function checkLanguages(
  domains: readonly { line: number; value: Domain }[],
  file: string,
  problems: Problem[],
  warnings: Problem[],
): void {
  for (const { line, value } of domains) {
    if (interfaceLanguage(value.locale) === null)
      warnings.push({ file, line, column: "locale", message: noInterface(value.locale) });
    const seen = new Map<string, string>([
      [siteLanguage(value.locale), `the locale ${JSON.stringify(value.locale)}`],
    ]);
    for (const tag of value.languages ?? []) {
      const language = siteLanguage(tag);
      const earlier = seen.get(language);
      if (earlier !== undefined) {
        problems.push({
          file,
          line,
          column: "languages",
          message: `${JSON.stringify(tag)} is the same language as ${earlier}: list each other language once, without the locale's`,
        });
        continue;
      }
      seen.set(language, JSON.stringify(tag));
      const problem = folderProblem(tag);
      if (problem !== null) problems.push({ file, line, column: "languages", message: problem });
      else if (interfaceLanguage(tag) === null)
        warnings.push({ file, line, column: "languages", message: noInterface(tag) });
    }
  }
  // A domain written twice is an error of its own (content/load.ts): its first row stands for it.
  const named = new Set<string>();
  const once = domains.filter(({ value }) => !named.has(value.domain) && named.add(value.domain));
  problems.push(
    ...new OwnerTable(once.map(({ line, value }) => sitePaths(value, line))).problems(file),
  );
}
