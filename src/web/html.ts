import { XML_FORBIDDEN } from "../util/xml-chars.ts";

/**
 * A tiny escaping template tag: every interpolated value is HTML-escaped unless it is already
 * `Html` (the output of another `html` call). CSV text can therefore never become markup: a
 * title written `<script>` is shown as text, and a character XML forbids is dropped. Plain
 * template literals keep rendering fast (tens of thousands of pages per build).
 */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

// The characters XML forbids are dropped as well: HTML counts them as parse errors, and the
// pages' texts go into feeds and sitemaps too.
// One class, surrogates whole (a pair passes the test and is kept by the replacement): as fast
// as the five markup characters alone.
// eslint-disable-next-line no-control-regex -- the controls XML forbids
const SPECIAL = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const REPLACED = new RegExp(`[&<>"']|${XML_FORBIDDEN.source}`, "g");
// Most texts need no escaping: testing first avoids building a new string for them.
export const escape = (text: string) =>
  SPECIAL.test(text) ? text.replace(REPLACED, (c) => ESCAPES[c] ?? "") : text;

function append(value: Value): string {
  if (value instanceof Html) return value.value;
  if (value === null || value === undefined || value === false || value === true) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return escape(value);
  let out = "";
  for (const item of value) out += append(item);
  return out;
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += append(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/**
 * The text as one flat string, for a finished page. The templates concatenate thousands of small
 * pieces, which V8 keeps as a tree (a rope) until something reads the text whole. Eleventy holds a
 * run's rendered pages until its transform hands them to the output; by then the garbage collector
 * has copied the pieces apart, and encoding a page into the output cost many times as much as
 * flattening it here, while its pieces are fresh, and the collector moved thousands of pieces
 * per page instead of one string. Reading a character
 * makes V8 flatten the rope in place.
 */
export function flatten(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** Markup that is trusted as is (fixed strings of the templates, never CSV text). */
export const raw = (text: string) => new Html(text);
