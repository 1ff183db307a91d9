import { LANGUAGES, type Audiovisual, type Director, type Language } from "../content/schema.ts";
import { fallbackOrder, interfaceLanguage } from "../web/i18n.ts";

/** A text of the content shown on a page: a director's biography, a work's synopsis. */
export interface Biography {
  text: string;
  /** The language of the text, or null when unknown (the untagged `description` or `synopsis` column). */
  lang: Language | null;
}

/**
 * The text of a content column written in several languages (`description_<lang>`,
 * `synopsis_<lang>`) that a page shows: in the page's language (`locale`, a domain's locale or
 * an interface language) when the CSV has it, else in its fallbacks as the interface texts have
 * them (Valencian, then Catalan, then Spanish), else English, else the untagged column, else any
 * other language. The caller marks the text with its `lang` so a screen reader pronounces it right.
 */
function inPageLanguage(
  texts: (lang: Language) => string | null | undefined,
  untagged: string | null | undefined,
  locale: string,
): Biography | null {
  const own = interfaceLanguage(locale);
  const order: Language[] = own === null ? [] : fallbackOrder(own);
  for (const lang of ["es", "en"] as const) if (!order.includes(lang)) order.push(lang);
  for (const lang of order) {
    const text = texts(lang);
    if (text != null) return { text, lang };
  }
  if (untagged != null) return { text: untagged, lang: null };
  for (const lang of LANGUAGES) {
    const text = texts(lang);
    if (text != null) return { text, lang };
  }
  return null;
}

/** A director's biography on a page (`description_<lang>` and `description`). */
export const biography = (director: Director, locale: string): Biography | null =>
  inPageLanguage((lang) => director[`description_${lang}`], director.description, locale);

/** A work's synopsis on a page (`synopsis_<lang>` and `synopsis`), by the biographies' rule. */
export function synopsis(work: Audiovisual, locale: string): Biography | null {
  const { synopses } = work;
  return synopses === undefined
    ? null
    : inPageLanguage((lang) => synopses[lang], synopses.untagged, locale);
}
