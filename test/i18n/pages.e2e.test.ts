import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { franc } from "franc-all";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue, type Catalogue } from "../../src/content/load.ts";
import { domainView } from "../../src/model/domain-view.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";

/**
 * One domain per interface language, built: on every kind of page, the interface text (the
 * data left out: titles, names, biographies, numbers) is identified as the domain's language
 * by franc-all, and `<html lang>` says it. Valencian is identified as Catalan (franc knows no
 * Valencian), and written `ca-valencia`.
 */

const LOCALES = [
  ["es", "spa", "es"],
  ["en-GB", "eng", "en"],
  ["ca", "cat", "ca"],
  ["gl", "glg", "gl"],
  ["eu", "eus", "eu"],
  ["va", "cat", "ca-valencia"],
  ["fr", "fra", "fr"],
] as const;
/** franc chooses among the languages of the data (ISO 639-3; Valencian is Catalan to it). */
const SEVEN = ["spa", "eng", "cat", "glg", "eus", "fra"];
/**
 * Except on Spanish pages: franc's trigram model of Galician claims short Spanish interface text
 * (a near tie, 1 against 0.99), so there Galician gives way to Portuguese, the model franc
 * finds nearest to Galician text: a Spanish page showing Galician words still fails.
 */
const candidates = (iso: string) =>
  iso === "spa" ? [...SEVEN.filter((l) => l !== "glg"), "por"] : SEVEN;

let dir: string;
let cleanup: () => Promise<void>;
let out: string;
let catalogue: Catalogue;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-i18n-"));
  const content = await generatedContent(dir, { works: 30, domains: LOCALES.length });
  const domains = path.join(content, "domains.csv");
  const lines = (await readFile(domains, "utf8")).trimEnd().split("\n");
  // The locale is the fifth column of the generated rows.
  const rows = lines.slice(1).map((line, i) =>
    line
      .split(",")
      .map((cell, c) => (c === 4 ? LOCALES[i]![0] : cell))
      .join(","),
  );
  await writeFile(domains, [lines[0], ...rows].join("\n") + "\n");
  out = path.join(dir, "out");
  await buildFixture(content, out, { site: true });
  catalogue = await loadCatalogue(content, () => {});
});
afterAll(() => cleanup());

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e]!);

/** What the catalogue's data writes on pages: the words that are no interface text. */
function dataTexts(): string[] {
  const texts = new Set<string>();
  for (const work of catalogue.works.values()) texts.add(work.name);
  for (const domain of catalogue.domains) texts.add(domain.name);
  for (const director of catalogue.directors.values()) {
    texts.add(director.name);
    for (const [field, value] of Object.entries(director)) {
      if (!field.startsWith("description") || typeof value !== "string") continue;
      texts.add(value);
      for (const sentence of value.split(/(?<=\.)\s+/)) texts.add(sentence);
    }
  }
  return [...texts].filter((t) => t.length > 0).sort((a, b) => b.length - a.length);
}

/** The words of a page a reader sees or hears: title, description, labels, alt texts, body text, without the data. */
function interfaceText(html: string, data: string[]): string {
  const attributes = [
    ...html.matchAll(
      /\s(?:alt|aria-label|content|title|data-none|data-count|data-count-one)="([^"]*)"/g,
    ),
  ].map((m) => m[1]!);
  const body = html
    .replace(/<script[^]*?<\/script>/g, " ")
    .replace(/<style[^]*?<\/style>/g, " ")
    // Biographies are data, marked with their language.
    .replace(/<p lang="[^"]*">[^]*?<\/p>/g, " ")
    .replace(/<[^>]+>/g, " ");
  let text = unescape(
    [
      ...attributes.filter(
        (a) =>
          !/^(https?:|width=|\d|summary|website|video|profile|[a-z]{2}_[A-Z]{2}$|noindex)/.test(a),
      ),
      body,
    ].join(" \n"),
  );
  for (const d of data) text = text.split(d).join(" ");
  return text
    .replace(/https?:\S+|\(xlsx\)|JSON|Atom|\bA-Z\b|\bZ-A\b|[\d·←→.,:()-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("a domain in each interface language", () => {
  it.each(LOCALES)("speaks %s on every kind of page", async (locale, iso, tag) => {
    const domain = catalogue.domains.find((d) => d.locale === locale)!;
    const root = path.join(out, domain.domain);
    const listed = domainView(catalogue, domain, "2026-11-20").orders.name.find(
      (l) => l.director !== null && l.work.audiovisual_type !== null,
    )!;
    const { work } = listed;
    const director = listed.director!;
    const pages = {
      listing: "index.html",
      work: `audiovisual-detail/${work.id}/${work.slug}/index.html`,
      director: `director/${director.slug}/index.html`,
      category: `category/${work.audiovisual_type}/index.html`,
      "not-found": "404.html",
    };
    const data = dataTexts();
    for (const [kind, rel] of Object.entries(pages)) {
      const html = await readFile(path.join(root, rel), "utf8");
      expect(html, `${locale} ${kind}`).toContain(`<html lang="${tag}">`);
      const text = interfaceText(html, data);
      expect(
        franc(text, { only: candidates(iso), minLength: 3 }),
        `${locale} ${kind}: ${text}`,
      ).toBe(iso);
    }
  });
});
