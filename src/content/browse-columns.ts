import type { Language } from "./cells.ts";

/**
 * What a work adds for browsing and for the libraries' own catalogues (docs/interface.md#input):
 * the optional audiovisuals.csv columns `country`, `audio_languages`, `subtitle_languages`,
 * `age_rating`, `accessibility` and `name_es` … `name_fr`, gathered in one object that is absent
 * when none has a value. The site and the MARC records show it; the API and the spreadsheets do
 * not (the contract fixes them), so src/model/work-digests.ts keeps it out of the work digest.
 */
export interface WorkBrowse {
  /** The title in another language, shown on the pages of that language. */
  names?: Partial<Record<Language, string>>;
  /** ISO 3166-1 alpha-2 codes, upper case, in the order written. */
  countries?: string[];
  /** BCP 47 tags, canonical. */
  audio?: string[];
  subtitles?: string[];
  /** As the domain's rating scheme writes it (`TP`, `12`). */
  age?: string;
  /** In this fixed order. */
  accessibility?: AccessibilityFeature[];
}

export const ACCESSIBILITY_FEATURES = ["audio-description", "captions", "sign-language"] as const;
export type AccessibilityFeature = (typeof ACCESSIBILITY_FEATURES)[number];
