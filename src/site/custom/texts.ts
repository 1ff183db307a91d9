import { interfaceLanguage } from "../../content/languages.ts";
import type { Language } from "../../content/schema.ts";
import {
  fallbackOrder,
  languageTexts,
  stringsFromTexts,
  type Strings,
  type Texts,
} from "../i18n.ts";
import type { Look } from "./look.ts";

interface Resolved {
  texts: Texts;
  strings: Strings;
}

const resolved = new WeakMap<Look, Map<Language, Resolved>>();

/**
 * A language's texts with the site folder's overrides: the package's texts and the folder's,
 * language by language along the fallbacks (an override of Catalan reaches Valencian where
 * Valencian has no text of its own), so the digest, and the pages' keys, follow the overrides.
 */
function resolve(look: Look, code: Language): Resolved {
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
export const lookStrings = (look: Look, tag: string): Strings =>
  resolve(look, interfaceLanguage(tag) ?? "es").strings;

/** Every interface text of a site's language, by key, for the templates (`texts.skip`, `texts["search.label"]`). */
export const resolvedLook = (look: Look, code: Language): Texts => resolve(look, code).texts;
