/**
 * The limits of the rows' cells (docs/interface.md#input). Both checks read them: the zod schemas
 * (cells.ts, schema.ts, domain-row.ts), which word every problem, and the hand-written check of
 * the large files (fast-rows.ts), which must accept exactly the same rows. The routing of the
 * servers reads the id's (api/layout.ts): a retrieve URL is a work's id as these rows allow it.
 */
export const LIMITS = {
  /** Digits of an id (a positive integer, no leading zero). */
  idDigits: 10,
  /** Digits of any other integer cell (a sign allowed). */
  integerDigits: 10,
  /** Characters of a one-line text: a title, a name, a URL template. */
  oneLine: 1000,
  slug: 200,
  imagePath: 500,
  /** Characters of a biography or a synopsis: paragraphs, capped so one cell cannot swell every page. */
  longText: 100_000,
  year: [1870, 2100],
  duration: [1, 100_000],
  status: [0, 1_000_000],
  /** A domain's new_days and export_window_days. */
  days: [0, 36_500],
} as const;

/** An id: a positive integer of at most `LIMITS.idDigits` digits (the pattern's text, unanchored). */
export const ID_DIGITS = `[1-9][0-9]{0,${LIMITS.idDigits - 1}}`;
export const POSITIVE_INT = new RegExp(`^${ID_DIGITS}$`);
export const INTEGER = new RegExp(`^-?[0-9]{1,${LIMITS.integerDigits}}$`);
export const LINE_BREAK = /[\n\r\u2028\u2029]/;
