import { resolvedTexts, type Text } from "../web/i18n.ts";
import type { DomainSite } from "./model.ts";

/** The interface texts the panel's script shows (their keys in i18n/<lang>.json). */
const TEXT_KEYS = [
  "filters.title",
  "filters.clear",
  "filters.decade",
  "filters.availability",
  "filters.more",
  "filters.fewer",
  "filters.findDirector",
  "filters.results",
  "filters.alsoTitled",
  "filters.failed",
  "category",
  "director",
  "work.country",
  "work.audio",
  "work.subtitles",
  "work.age",
  "work.accessibility",
  "browse.decade",
  "browse.new",
  "isNew",
  "isLeaving",
  "search.count",
  "search.none",
  "orderBy",
  "orderings.name",
  "orderings.-name",
  "orderings.year",
  "orderings.-year",
  "pagination",
  "previous",
  "next",
  "pageOf",
] as const;

/** The version's texts and its facets' value names: categories from the texts, countries and languages from ICU. */
export function browseLabels(
  site: DomainSite,
  values: {
    category: readonly string[];
    country: readonly string[];
    audio: readonly string[];
    subtitles: readonly string[];
    accessibility: readonly string[];
  },
): unknown {
  const lang = site.strings.lang;
  const texts = resolvedTexts(site.strings.code);
  const text = (key: string): Text => texts[key] ?? key;
  const region = new Intl.DisplayNames(lang, { type: "region", fallback: "code" });
  const language = new Intl.DisplayNames(lang, { type: "language", fallback: "code" });
  const languageName = (tag: string) => {
    const name = language.of(tag) ?? tag;
    // ICU names Valencian after Catalan ("catalán (valenciano)"); a name that is the tag is no name.
    return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
  };
  return {
    lang,
    texts: Object.fromEntries(TEXT_KEYS.map((key) => [key, text(key)])),
    category: values.category.map((c) => text(`categories.${c}`)),
    country: values.country.map((c) => region.of(c) ?? c),
    audio: values.audio.map(languageName),
    subtitles: values.subtitles.map(languageName),
    accessibility: values.accessibility.map((a) => text(`accessibility.${a}`)),
  };
}
