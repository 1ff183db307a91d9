import { LANGUAGES, type Director, type Language } from "../content/schema.ts";

export interface Biography {
  text: string;
  /** The language of the text, or null when unknown (the untagged `description` column). */
  lang: Language | null;
}

/**
 * The biography shown on a domain's pages: in the domain's language when the CSV has it, else
 * Spanish, else English, else the untagged `description`, else any other language. The caller
 * marks the text with its `lang` so a screen reader pronounces it right.
 */
export function biography(director: Director, locale: string): Biography | null {
  const own = locale.slice(0, 2).toLowerCase();
  const order: Language[] = [];
  if ((LANGUAGES as readonly string[]).includes(own)) order.push(own as Language);
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
