import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../src/content/schema.ts";
import {
  interfaceLanguage,
  languageTexts,
  resolvedTexts,
  stringsOf,
  TEXTS_DIR,
  type Text,
} from "../../src/web/i18n.ts";

/**
 * Values a language may share with Spanish because they are the same words in it, by language
 * and key. Anything else equal to the Spanish value is a text left untranslated.
 */
const SAME_AS_SPANISH: Record<string, Record<string, string>> = {
  all: { minutes: "“min” is the abbreviation of minutes in all seven languages" },
  ca: { previous: "“Anterior” is the Catalan word" },
  va: { previous: "“Anterior” is the Valencian word" },
  gl: {
    previous: "“Anterior” is the Galician word",
    catalogue: "“Catálogo” is the Galician word",
    "sheets.export_excel.name": "“Catálogo” is the Galician word",
    "sheets.export_excel.title": "“Catálogo audiovisual de …”: the same words in Galician",
    "exports.export_excel": "“Catálogo completo”: the same words in Galician",
    works: "“obra”, “obras”: the same words in Galician",
    days: "“día”, “días”: the same words in Galician",
    "search.count": "“resultado”, “resultados”: the same words in Galician",
    "orderings.name": "“Título” is the Galician word",
    "orderings.-name": "“Título” is the Galician word",
    director: "“Dirección” is the Galician word (RAG)",
    category: "“Categoría” is the Galician word",
    duration: "“Duración” is the Galician word",
    downloads: "“Descargas” is the Galician word",
    "categories.artes-escenicas": "“Artes escénicas” is the Galician term",
    "sheets.export_up_movies.name": "“Altas” is the Galician term for additions to a collection",
    "work.subtitles": "“Subtítulos” is the Galician word",
    isLeaving: "“Últimos días”: the same words in Galician",
    "browse.nav": "“Explorar” is the Galician verb",
    "browse.decades": "“Por décadas”: the same words in Galician",
    "filters.title": "“Filtros” is the Galician word",
    "filters.decade": "“Década” is the Galician word",
    "filters.results": "“Resultados” is the Galician word",
  },
};

const placeholders = (text: Text) =>
  [...new Set([...JSON.stringify(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

describe("the interface texts", () => {
  it("ship one file per language of the data, no more", async () => {
    const files = (await readdir(TEXTS_DIR)).filter((f) => f.endsWith(".json")).sort();
    expect(files).toEqual(LANGUAGES.map((l) => `${l}.json`).sort());
  });

  it("have the same keys and placeholders in every language, each value translated or explained", () => {
    const spanish = languageTexts("es");
    for (const lang of LANGUAGES) {
      const texts = languageTexts(lang);
      expect(Object.keys(texts).sort(), lang).toEqual(Object.keys(spanish).sort());
      for (const [key, value] of Object.entries(texts)) {
        const where = `${lang}.json "${key}"`;
        expect(typeof value === "string" ? value.trim() : value.other?.trim(), where).toBeTruthy();
        // A plural text has the same forms as Spanish's, every one non-empty.
        if (typeof value !== "string")
          for (const form of Object.values(value)) expect(form?.trim(), where).toBeTruthy();
        expect(placeholders(value), where).toEqual(placeholders(spanish[key]!));
        if (lang === "es") continue;
        const explained = SAME_AS_SPANISH.all![key] ?? SAME_AS_SPANISH[lang]?.[key];
        const same = JSON.stringify(value) === JSON.stringify(spanish[key]);
        expect(
          same,
          `${where} is the Spanish value${explained ? "" : " (translate it, or explain it in SAME_AS_SPANISH)"}`,
        ).toBe(explained !== undefined);
      }
    }
  });

  it("name sheets as Excel allows", () => {
    for (const lang of LANGUAGES) {
      for (const kind of ["export_excel", "export_up_movies", "export_down_movies"]) {
        const name = stringsOf(lang).format(`sheets.${kind}.name`);
        expect(name.length, `${lang} ${kind}`).toBeLessThanOrEqual(31);
        expect(name, `${lang} ${kind}`).not.toMatch(/[[\]:*?/\\]/);
      }
    }
  });

  it("choose plural forms by Intl.PluralRules and write numbers in the language", () => {
    expect(stringsOf("es").works(1)).toBe("1 obra");
    expect(stringsOf("es").works(12345)).toBe("12.345 obras");
    expect(stringsOf("en").works(12345)).toBe("12,345 works");
    expect(stringsOf("fr").works(0)).toBe("0 œuvre"); // French counts 0 as singular
    expect(stringsOf("fr").works(2)).toBe("2 œuvres");
    expect(stringsOf("eu").works(1)).toBe("lan 1");
    expect(stringsOf("eu").works(3)).toBe("3 lan");
    expect(stringsOf("ca").pageOf(2, 5)).toBe("Pàgina 2 de 5");
    // Spanish and Catalan have a "many" category (a million) that the files leave to "other".
    expect(stringsOf("es").works(1_000_000)).toBe("1.000.000 obras");
  });

  it("fall back from Valencian to Catalan to Spanish", () => {
    expect(stringsOf("va").lang).toBe("ca-valencia");
    const va = resolvedTexts("va");
    expect(Object.keys(va).sort()).toEqual(Object.keys(languageTexts("es")).sort());
    expect(va.notFoundText).toMatch(/existix/); // AVL's -ix form, where Catalan has existeix
    expect(stringsOf("ca").notFoundText).toMatch(/existeix/);
  });

  it("key pages by the texts: each language has its own digest", () => {
    const digests = new Set(LANGUAGES.map((l) => stringsOf(l).digest));
    expect(digests.size).toBe(LANGUAGES.length);
  });

  it("read a locale's language from its tag", () => {
    expect(interfaceLanguage("es-ES")).toBe("es");
    expect(interfaceLanguage("EU")).toBe("eu");
    expect(interfaceLanguage("va")).toBe("va");
    expect(interfaceLanguage("ca-ES-valencia")).toBe("va");
    expect(interfaceLanguage("ca-ES")).toBe("ca");
    expect(interfaceLanguage("de")).toBeNull();
    expect(interfaceLanguage("not a tag")).toBeNull();
  });
});
