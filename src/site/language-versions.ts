import { interfaceLanguage, siteLanguage } from "../content/languages.ts";
import type { Domain } from "../content/schema.ts";
import { stringsFor } from "../web/i18n.ts";

/**
 * The language versions of a domain's site. The locale's version keeps the domain's URLs; each
 * language of the `languages` column gets the same pages under `{base_url}/{L}/`, L being its
 * interface language (`ca`, `va`, …) or, outside the seven, its tag in lowercase: Hugo's layout
 * for a multilingual site. A domain without `languages` has one version, and its pages carry no
 * switcher and no alternates, as before.
 */
export interface SiteVersion {
  /** The folder below the domain's site root: "" for the locale's version, else "L/". */
  prefix: string;
  /** The tag of `<html lang>` and of the switcher's `lang` (`ca-valencia` for Valencian). */
  lang: string;
  /**
   * What search engines are told the version's language is, or null when they are told
   * nothing. They read only a language and a region in `hreflang`: Valencian is `ca` when the
   * domain has no Catalan version; beside a Catalan one, which has `ca`, it has none (two
   * versions under one hreflang would be an error to them), and is reached by its readers
   * through the switcher, the sitemap and `lang`. A version in a language outside the seven
   * speaks Spanish, and has none either.
   */
  hreflang: string | null;
  /** The language's own name, in the switcher. */
  label: string;
  /** The domain's name in this version (`name_<lang>`, else `name`). */
  name: string;
}

export function siteVersions(domain: Domain): SiteVersion[] {
  const tags = [domain.locale, ...(domain.languages ?? [])];
  const hasCatalan = tags.some((tag) => interfaceLanguage(tag) === "ca");
  return tags.map((tag, i) => {
    const strings = stringsFor(tag);
    const code = interfaceLanguage(tag);
    // A tag outside the seven gets the Spanish interface: its pages are Spanish, and say so.
    const hreflang =
      code === null ? null : code === "va" ? (hasCatalan ? null : "ca") : strings.lang;
    return {
      prefix: i === 0 ? "" : `${siteLanguage(tag)}/`,
      lang: strings.lang,
      hreflang,
      label: code === null ? tag : strings.languageName,
      name: (code !== null ? domain.names?.[code] : undefined) ?? domain.name,
    };
  });
}
