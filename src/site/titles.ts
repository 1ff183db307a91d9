import type { Audiovisual } from "../content/schema.ts";

/**
 * A work's title as the pages of one language show it: its `name_<lang>` column, Valencian falling
 * back to Catalan, and the locale's `name` otherwise. Every page, feed and index that shows a title
 * goes through here; the API and the spreadsheets keep `name`.
 */
export function titleIn(work: Audiovisual, language: string): string {
  const names = work.browse?.names;
  if (names === undefined) return work.name;
  const code = language.toLowerCase().split("-")[0] as keyof typeof names;
  return names[code] ?? (code === "va" ? names.ca : undefined) ?? work.name;
}
