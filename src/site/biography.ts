import { LANGUAGES, type Director, type Language } from "../content/schema.ts";
import { fallbackOrder, interfaceLanguage } from "./i18n.ts";

export interface Biography {
  text: string;
  /** The language of the text, or null when unknown (the untagged `description` column). */
  lang: Language | null;
}

/**
 * The biography shown on a page: in the page's language (`locale`, a domain's locale or an
 * interface language) when the CSV has it, else in its fallbacks as the interface texts have
 * them (Valencian, then Catalan, then Spanish), else English, else the untagged `description`,
 * else any other language. The caller marks the text with its `lang` so a screen reader
 * pronounces it right.
 */
export function biography(director: Director, locale: string): Biography | null {
  const own = interfaceLanguage(locale);
  const order: Language[] = own === null ? [] : fallbackOrder(own);
  for (const lang of ["es", "en"] as const) if (!order.includes(lang)) order.push(lang);
  for (const lang of order) {
    const text = director[`description_${lang}`];
    if (text !== null) return { text, lang };
  }
  if (director.description !== null) return { text: director.description, lang: null };
  for (const lang of LANGUAGES) {
    const text = director[`description_${lang}`];
    if (text !== null) return { text, lang };
  }
  return null;
}
