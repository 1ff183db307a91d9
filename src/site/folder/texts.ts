import { interfaceLanguage } from "../../content/languages.ts";
import { LANGUAGES, type Language } from "../../content/schema.ts";
import type { Problem } from "../../errors.ts";
import {
  fallbackOrder,
  languageTexts,
  resolvedTexts,
  stringsFromTexts,
  type Strings,
  type Text,
  type Texts,
} from "../../web/i18n.ts";

/**
 * The interface texts of a library's site folder: `site/i18n/<lang>.json`, read and checked
 * (src/site/folder/folder.ts reads the folder), and each language's texts with them.
 */

/** What of a site folder the texts need: its overrides per language. */
interface WithTexts {
  readonly texts: ReadonlyMap<Language, Texts>;
}

interface Resolved {
  texts: Texts;
  strings: Strings;
}

const resolved = new WeakMap<WithTexts, Map<Language, Resolved>>();

/**
 * A language's texts with the site folder's overrides: the package's texts and the folder's,
 * language by language along the fallbacks (an override of Catalan reaches Valencian where
 * Valencian has no text of its own), so the digest, and the pages' keys, follow the overrides.
 */
function resolve(look: WithTexts, code: Language): Resolved {
  let byCode = resolved.get(look);
  if (byCode === undefined) resolved.set(look, (byCode = new Map<Language, Resolved>()));
  let found = byCode.get(code);
  if (found === undefined) {
    const texts: Texts = {};
    for (const lang of fallbackOrder(code).reverse())
      Object.assign(texts, languageTexts(lang), look.texts.get(lang) ?? {});
    byCode.set(code, (found = { texts, strings: stringsFromTexts(code, texts) }));
  }
  return found;
}

/** The interface of a domain's locale (or a version's language) with the folder's overrides. */
export const stringsWithOverrides = (look: WithTexts, tag: string): Strings =>
  resolve(look, interfaceLanguage(tag) ?? "es").strings;

/** Every interface text of a site's language, by key, for the templates (`texts.skip`, `texts["search.label"]`). */
export const textsWithOverrides = (look: WithTexts, code: Language): Texts =>
  resolve(look, code).texts;

/**
 * One `site/i18n/<lang>.json`: its keys must be the package's, its values strings or plural
 * forms, its `{placeholders}` among those the package's text has (the program fills only those).
 */
export function readTexts(
  file: string,
  name: string,
  text: string,
  texts: Map<Language, Texts>,
  problems: Problem[],
) {
  const lang = name.replace(/\.json$/, "") as Language;
  if (!name.endsWith(".json") || !LANGUAGES.includes(lang)) {
    problems.push({
      file,
      message: `no interface language "${name}": name the file after one of ${LANGUAGES.map((l) => `${l}.json`).join(", ")}`,
    });
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    const line = at ? text.slice(0, Number(at[1])).split("\n").length : undefined;
    problems.push({
      file,
      ...(line !== undefined ? { line } : {}),
      message: `not valid JSON: ${(error as Error).message}`,
    });
    return;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    problems.push({ file, line: 1, message: 'expected an object of texts, like { "skip": "…" }' });
    return;
  }
  const known = resolvedTexts(lang);
  const own: Texts = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const line = lineOf(text, key);
    if (!Object.hasOwn(known, key)) {
      problems.push({
        file,
        line,
        message: `unknown key "${key}": the keys are those of the package's i18n/${lang}.json`,
      });
      continue;
    }
    const plural =
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      Object.values(value).every((v) => typeof v === "string") &&
      Object.hasOwn(value, "other");
    if (typeof value !== "string" && !plural) {
      problems.push({
        file,
        line,
        message: `"${key}": expected a string, or plural forms like { "one": "…", "other": "…" }`,
      });
      continue;
    }
    const allowed = packagePlaceholders(key);
    const unknown = [...placeholders(value as Text)].filter((p) => !allowed.has(p));
    if (unknown.length > 0) {
      const has = allowed.size === 0 ? "none" : [...allowed].map((p) => `{${p}}`).join(", ");
      problems.push({
        file,
        line,
        message: `"${key}": ${unknown.map((p) => `{${p}}`).join(", ")} ${unknown.length === 1 ? "is not a value" : "are not values"} of this text (it has ${has})`,
      });
      continue;
    }
    own[key] = value;
  }
  texts.set(lang, own);
}

/** The placeholders the program fills in a text: those of the package's, in every language. */
function packagePlaceholders(key: string): Set<string> {
  return new Set(
    LANGUAGES.flatMap((l) => {
      const texts = languageTexts(l);
      return Object.hasOwn(texts, key) ? [...placeholders(texts[key]!)] : [];
    }),
  );
}

/** The `{name}` placeholders of a text, in every plural form. */
function placeholders(text: Text): Set<string> {
  const forms = typeof text === "string" ? [text] : Object.values(text);
  return new Set(
    forms.flatMap((form) => [...(form ?? "").matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)),
  );
}

/** The line of a key in a JSON text (its first appearance as a key). */
function lineOf(text: string, key: string): number {
  const at = text.indexOf(`${JSON.stringify(key)}`);
  return at === -1 ? 1 : text.slice(0, at).split("\n").length;
}
