import type { ExportKind } from "../api/layout.ts";
import type { Strings } from "../web/i18n.ts";

/**
 * The words of the spreadsheets: sheet names and document properties, in the language of the
 * domain's interface (src/web/i18n.ts decides it from the locale, and reads the words from
 * i18n/<lang>.json; the category labels come from there too, so the site and the files agree).
 * Column headers are not translated: they are the API's field names, so that staff scripts can
 * rely on them whatever the domain's language.
 */

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

/** A spreadsheet's texts in the interface language's words (`sheets.<kind>.*` in i18n/<lang>.json). */
export function exportTexts(strings: Strings, kind: ExportKind, f: ExportFacts): ExportTexts {
  const values = { name: f.name, domain: f.domain, date: f.date };
  const window =
    kind === "export_up_movies"
      ? { from: f.upsFrom, to: f.upsTo }
      : { from: f.downsFrom, to: f.downsTo };
  const days = strings.format("days", { n: f.windowDays });
  return {
    sheet: strings.format(`sheets.${kind}.name`),
    title: strings.format(`sheets.${kind}.title`, values),
    subject: strings.format(`sheets.${kind}.subject`, { ...values, ...window, days }),
  };
}
