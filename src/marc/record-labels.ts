import { dropForbidden } from "./record.ts";

/**
 * The words a record says in the domain's language (MARC's notes and link texts are written in the
 * language of the cataloguing). The build can give its own (from the interface texts); these are
 * the defaults of the seven languages. `{languages}`, `{language}` and `{rating}` are filled in.
 */
export interface MarcLabels {
  /** 546: the audio languages, a list in the domain's language. */
  audio: string;
  /** 546: the subtitle languages. */
  subtitles: string;
  /** 856 $y: the watch link's text. */
  watch: string;
  /** 700 $e: the relator term of a director ($4 `drt` says it in code). */
  director: string;
  /** 521: the age rating, as the domain's scheme writes it. */
  ageRating: string;
  /** 520: said in brackets after a synopsis cut to fit the record. */
  synopsisShortened: string;
  /** 246 $i: the text shown before a title in another language. */
  titleIn: string;
  /**
   * Names of languages the platform's Intl data does not name (or names otherwise), by code:
   * `va` (Valencian, also for `ca-valencia`) and the sign languages of Spain. Others are named by
   * Intl.DisplayNames in the domain's language, or written as their tag.
   */
  languageNames: Readonly<Record<string, string>>;
}

/** The languages with default labels: the catalogue's seven. */
export type LabelsLanguage = "es" | "en" | "ca" | "gl" | "eu" | "va" | "fr";

export const DEFAULT_LABELS: Readonly<Record<LabelsLanguage, MarcLabels>> = {
  es: {
    audio: "Audio en {languages}.",
    subtitles: "Subtítulos en {languages}.",
    watch: "Ver o pedir en préstamo",
    director: "director",
    ageRating: "Calificación por edades: {rating}.",
    synopsisShortened: "sinopsis abreviada",
    titleIn: "Título en {language}:",
    languageNames: {
      va: "valenciano",
      ssp: "lengua de signos española",
      csc: "lengua de signos catalana",
      vsv: "lengua de signos valenciana",
    },
  },
  en: {
    audio: "Audio in {languages}.",
    subtitles: "Subtitles in {languages}.",
    watch: "Watch or borrow",
    director: "director",
    ageRating: "Age rating: {rating}.",
    synopsisShortened: "summary shortened",
    titleIn: "Title in {language}:",
    languageNames: {
      va: "Valencian",
      ssp: "Spanish Sign Language",
      csc: "Catalan Sign Language",
      vsv: "Valencian Sign Language",
    },
  },
  ca: {
    audio: "Àudio en {languages}.",
    subtitles: "Subtítols en {languages}.",
    watch: "Veure o demanar en préstec",
    director: "director",
    ageRating: "Qualificació per edats: {rating}.",
    synopsisShortened: "sinopsi abreujada",
    titleIn: "Títol en {language}:",
    languageNames: {
      va: "valencià",
      ssp: "llengua de signes espanyola",
      csc: "llengua de signes catalana",
      vsv: "llengua de signes valenciana",
    },
  },
  gl: {
    audio: "Audio en {languages}.",
    subtitles: "Subtítulos en {languages}.",
    watch: "Ver ou pedir en préstamo",
    director: "director",
    ageRating: "Cualificación por idades: {rating}.",
    synopsisShortened: "sinopse abreviada",
    titleIn: "Título en {language}:",
    languageNames: {
      va: "valenciano",
      ssp: "lingua de signos española",
      csc: "lingua de signos catalá",
      vsv: "lingua de signos valenciana",
    },
  },
  eu: {
    audio: "Audioa: {languages}.",
    subtitles: "Azpitituluak: {languages}.",
    watch: "Ikusi edo maileguan hartu",
    director: "zuzendaria",
    ageRating: "Adin-sailkapena: {rating}.",
    synopsisShortened: "sinopsi laburtua",
    titleIn: "Izenburua ({language}):",
    languageNames: {
      va: "valentziera",
      ssp: "espainiar zeinu hizkuntza",
      csc: "katalan zeinu hizkuntza",
      vsv: "valentziar zeinu hizkuntza",
    },
  },
  va: {
    audio: "Àudio en {languages}.",
    subtitles: "Subtítols en {languages}.",
    watch: "Vore o demanar en préstec",
    director: "director",
    ageRating: "Qualificació per edats: {rating}.",
    synopsisShortened: "sinopsi abreujada",
    titleIn: "Títol en {language}:",
    languageNames: {
      va: "valencià",
      ssp: "llengua de signes espanyola",
      csc: "llengua de signes catalana",
      vsv: "llengua de signes valenciana",
    },
  },
  fr: {
    audio: "Audio en {languages}.",
    subtitles: "Sous-titres en {languages}.",
    watch: "Regarder ou emprunter",
    director: "réalisateur",
    ageRating: "Classification par âge : {rating}.",
    synopsisShortened: "résumé abrégé",
    titleIn: "Titre en {language} :",
    languageNames: {
      va: "valencien",
      ssp: "langue des signes espagnole",
      csc: "langue des signes catalane",
      vsv: "langue des signes valencienne",
    },
  },
};

/**
 * The labels language of a BCP 47 tag: one of the seven (`ca-valencia`, `ca-ES-valencia` and `va`
 * are Valencian), else Spanish, as the site's interface does.
 */
export function labelsLanguage(tag: string): LabelsLanguage {
  const lower = tag.trim().toLowerCase();
  const primary = lower.split("-")[0]!;
  if (primary === "va" || (primary === "ca" && /(^|-)valencia(-|$)/.test(lower))) return "va";
  return Object.hasOwn(DEFAULT_LABELS, primary) ? (primary as LabelsLanguage) : "es";
}

/** `template` with each `{name}` replaced by its value. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  let filled = template;
  for (const name in values) filled = filled.replaceAll(`{${name}}`, values[name]!);
  return filled;
}

/**
 * A domain's labels without the characters XML forbids: with every value of a work cleaned as it
 * is read, the records are clean by construction (MappedRecord).
 */
export function withoutForbiddenLabels(labels: Partial<MarcLabels>): Partial<MarcLabels> {
  const clean: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(labels))
    clean[name] =
      typeof value === "string"
        ? dropForbidden(value)
        : Object.fromEntries(
            Object.entries(value ?? {}).map(([code, text]) => [code, dropForbidden(text)]),
          );
  return clean;
}
