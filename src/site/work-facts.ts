import { LANGUAGES, type Audiovisual } from "../content/schema.ts";
import type { AccessibilityFeature } from "../content/browse-columns.ts";
import { html, type Html } from "../web/html.ts";
import { languageTag, type Strings } from "../web/i18n.ts";
import { titleIn } from "./titles.ts";

/**
 * What a work's browsing columns add to its page: facts after the running time, and the
 * properties of its JSON-LD `Movie`. Countries and languages are named by ICU in the page's
 * language, so no country or language name lives in i18n/*.json.
 */

const namers = new Map<string, Namers>();
interface Namers {
  region: Intl.DisplayNames;
  language: Intl.DisplayNames;
  list: Intl.ListFormat;
}
function namersOf(lang: string): Namers {
  let found = namers.get(lang);
  if (found === undefined)
    namers.set(
      lang,
      (found = {
        region: new Intl.DisplayNames(lang, { type: "region" }),
        // A tag ICU cannot name (content/browse-columns.ts warns of it) is shown as itself.
        language: new Intl.DisplayNames(lang, { type: "language", fallback: "code" }),
        list: new Intl.ListFormat(lang, { type: "conjunction" }),
      }),
    );
  return found;
}

/** The titles of a work other than the one this page shows, each with its language tag. */
export function otherTitles(
  work: Audiovisual,
  s: Strings,
  localeLang: string,
): { title: string; lang: string }[] {
  const shown = titleIn(work, s.code);
  const seen = new Set([shown]);
  const others: { title: string; lang: string }[] = [];
  const add = (title: string, lang: string) => {
    if (seen.has(title)) return;
    seen.add(title);
    others.push({ title, lang });
  };
  add(work.name, localeLang);
  const names = work.browse?.names ?? {};
  for (const code of LANGUAGES) {
    const name = names[code];
    if (name !== undefined) add(name, languageTag(code));
  }
  return others;
}

/** The facts' `<dt>`/`<dd>` pairs, each only when the work has it. */
export function browseFacts(work: Audiovisual, s: Strings, localeLang: string): Html {
  const browse = work.browse;
  const others = otherTitles(work, s, localeLang);
  if (browse === undefined && others.length === 0) return html``;
  const { region, language, list } = namersOf(s.lang);
  const fact = (label: string, value: Html | string) => html`<dt>${label}</dt><dd>${value}</dd>\n`;
  const languages = (tags: string[]) => list.format(tags.map((tag) => language.of(tag) ?? tag));
  return html`${browse?.countries ? fact(s.format("work.country"), list.format(browse.countries.map((c) => region.of(c) ?? c))) : ""}${browse?.audio ? fact(s.format("work.audio"), languages(browse.audio)) : ""}${browse?.subtitles ? fact(s.format("work.subtitles"), languages(browse.subtitles)) : ""}${browse?.age !== undefined ? fact(s.format("work.age"), browse.age) : ""}${browse?.accessibility ? fact(s.format("work.accessibility"), list.format(browse.accessibility.map((f) => s.format(`accessibility.${f}`)))) : ""}${others.length > 0 ? fact(s.format("work.otherTitles"), html`${others.map((o, i) => html`${i > 0 ? html`<br>` : ""}<span lang="${o.lang}">${o.title}</span>`)}`) : ""}`;
}

const FEATURES: Record<AccessibilityFeature, string> = {
  "audio-description": "audioDescription",
  captions: "captions",
  "sign-language": "signLanguage",
};

/** One value as itself, several as an array (schema.org takes either). */
const oneOrMany = <T>(values: T[]): T | T[] => (values.length === 1 ? values[0]! : values);

/** The JSON-LD properties of a `Movie` the browsing columns give. */
export function browseLd(
  work: Audiovisual,
  s: Strings,
  localeLang: string,
): Record<string, unknown> {
  const browse = work.browse;
  const others = otherTitles(work, s, localeLang).map((o) => o.title);
  if (browse === undefined && others.length === 0) return {};
  const { region } = namersOf(s.lang);
  return {
    ...(others.length > 0 ? { alternateName: oneOrMany(others) } : {}),
    ...(browse?.countries
      ? {
          countryOfOrigin: oneOrMany(
            browse.countries.map((c) => ({ "@type": "Country", name: region.of(c) ?? c })),
          ),
        }
      : {}),
    ...(browse?.audio ? { inLanguage: oneOrMany(browse.audio) } : {}),
    ...(browse?.subtitles ? { subtitleLanguage: oneOrMany(browse.subtitles) } : {}),
    ...(browse?.age !== undefined ? { contentRating: browse.age } : {}),
    ...(browse?.accessibility
      ? { accessibilityFeature: browse.accessibility.map((f) => FEATURES[f]) }
      : {}),
  };
}
