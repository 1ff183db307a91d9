import type { ExportKind } from "../api/layout.ts";
import type { Strings } from "../site/i18n.ts";

/**
 * The words of the spreadsheets: sheet names and document properties, in the language of the
 * domain's interface (src/site/i18n.ts decides it from the locale: English for `en…`, else
 * Spanish; the category labels come from there too, so the site and the files agree). Column
 * headers are not translated: they are the API's field names, so that staff scripts can rely on
 * them whatever the domain's language.
 */

export type ExportLanguage = Strings["lang"];

/** What one spreadsheet holds, in words: its sheet name and its document properties. */
export interface ExportTexts {
  /** At most 31 characters, none of `[]:*?/\` (Excel's rules for sheet names). */
  sheet: string;
  title: string;
  subject: string;
}

/** The inputs of the texts: the domain and the dates that bound each kind's rows. */
export interface ExportFacts {
  domain: string;
  name: string;
  /** The build date T. */
  date: string;
  /** Length of the ups/downs window in days. */
  windowDays: number;
  /** First and last day of the ups window (available_from in it): T-N+1 … T. */
  upsFrom: string;
  upsTo: string;
  /** First and last day of the downs window (available_until in it): T-N … T-1. */
  downsFrom: string;
  downsTo: string;
}

const TEXTS: Record<ExportLanguage, Record<ExportKind, (f: ExportFacts) => ExportTexts>> = {
  es: {
    export_excel: (f) => ({
      sheet: "Catálogo",
      title: `Catálogo audiovisual de ${f.name}`,
      subject: `Obras disponibles en ${f.domain} el ${f.date}`,
    }),
    export_up_movies: (f) => ({
      sheet: "Altas",
      title: `Altas del catálogo audiovisual de ${f.name}`,
      subject: `Obras cuyo primer día disponible en ${f.domain} está entre el ${f.upsFrom} y el ${f.upsTo} (${f.windowDays} días hasta el ${f.date})`,
    }),
    export_down_movies: (f) => ({
      sheet: "Bajas",
      title: `Bajas del catálogo audiovisual de ${f.name}`,
      subject: `Obras cuyo último día disponible en ${f.domain} está entre el ${f.downsFrom} y el ${f.downsTo} (${f.windowDays} días hasta el ${f.date})`,
    }),
  },
  en: {
    export_excel: (f) => ({
      sheet: "Catalogue",
      title: `Audiovisual catalogue of ${f.name}`,
      subject: `Works available in ${f.domain} on ${f.date}`,
    }),
    export_up_movies: (f) => ({
      sheet: "Additions",
      title: `Additions to the audiovisual catalogue of ${f.name}`,
      subject: `Works whose first available day in ${f.domain} is between ${f.upsFrom} and ${f.upsTo} (${f.windowDays} days up to ${f.date})`,
    }),
    export_down_movies: (f) => ({
      sheet: "Withdrawals",
      title: `Withdrawals from the audiovisual catalogue of ${f.name}`,
      subject: `Works whose last available day in ${f.domain} is between ${f.downsFrom} and ${f.downsTo} (${f.windowDays} days up to ${f.date})`,
    }),
  },
};

export const exportTexts = (language: ExportLanguage, kind: ExportKind, facts: ExportFacts): ExportTexts => TEXTS[language][kind](facts);
