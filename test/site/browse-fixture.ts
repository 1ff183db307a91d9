import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generatedContent } from "../helpers/catalogue.ts";

/**
 * A catalogue for the browse pages, and the plain computation they are checked against: a
 * generated content folder (120 works, two domains) rewritten by hand where the browse pages have
 * their edges. Domain 1 (Spanish, at the host's root, versions `en/` and `ca/`) has windows ending
 * around the leaving boundary and starting around the new one, titles that repeat, works without a
 * year, titles in English and Catalan; domain 2 (English, under the base path /cataleg, new_days
 * 10, leaving_days 0) keeps the generator's windows, so nothing leaves there.
 */

export const T = "2026-11-20";
export const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const addDays = (n: number) => new Date((dayNumber(T) + n) * 86_400_000).toISOString().slice(0, 10);

export const DOMAINS =
  "domain,name,base_url,locale,default_ordering,new_days,leaving_days,languages\n" +
  "domain-1.example,Red 1,,es,name,30,,en ca\n" +
  "domain-2.example,Red 2,https://domain-2.example/cataleg,en,-year,10,0,\n";

/** The browsing columns written, by work id (the others' cells are empty). */
export const BROWSE: Record<number, Record<string, string>> = {
  1: {
    country: "ES, FR",
    audio_languages: "es va",
    subtitle_languages: "en",
    age_rating: "TP",
    accessibility: "captions audio-description",
    name_en: "A Trip",
    name_fr: "Le Voyage",
  },
  2: { name_ca: "Títol en català", name_en: "An English title" },
  3: { name_en: "Nosferatu in English" },
  5: { name_en: "Nosferatu, a new one" }, // new in domain 1 (its window starts on T)
  9: { name_va: "Només en valencià" },
  14: { country: "xk", age_rating: "+16" },
};
const BROWSE_HEADER = [
  "country",
  "audio_languages",
  "subtitle_languages",
  "age_rating",
  "accessibility",
  "name_en",
  "name_ca",
  "name_va",
  "name_fr",
];

/** A CSV cell, quoted when it must be. */
const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Last days around the leaving boundary (days after T), for every seventh work. */
const UNTIL = [-1, 0, 1, 29, 30, 31, 15, -5, 34, 2, 28, 0, 29, 10, 40, 7, 3];

/** Domain 1's window of work i: edges of new, leaving and listing, chosen by the id. */
function window(i: number): [string, string] {
  if (i % 11 === 0) return [addDays(3), ""]; // upcoming: not listed
  if (i % 7 === 0) return ["2020-01-01", addDays(UNTIL[(i / 7) % UNTIL.length]!)];
  if (i % 5 === 0) return [addDays(-(i % 35)), ""]; // starts from T-34 to T
  if (i % 13 === 0) return [addDays(-3), addDays(5)]; // new and leaving
  return ["2020-01-01", ""];
}

/**
 * Writes the catalogue, with or without the browsing columns (the rest identical), and returns
 * the content folder.
 */
export async function browseContent(dir: string, withColumns = true): Promise<string> {
  const content = await generatedContent(dir, { works: 120, domains: 2 });
  await writeFile(path.join(content, "domains.csv"), DOMAINS);
  const works = parseCsv(await readFile(path.join(content, "audiovisuals.csv"), "utf8"));
  const header = [...works[0]!, ...(withColumns ? BROWSE_HEADER : [])];
  const rows = works.slice(1).map((row) => {
    const id = Number(row[0]);
    const named = [...row];
    if (id >= 3 && id <= 5) named[1] = "Nosferatu"; // the same title three times
    if (id === 8) named[1] = "¡Ay, Carmela!";
    if (id === 6 || id === 7) named[5] = ""; // no year
    if (id === 10) named[5] = "1899";
    if (id === 12) named[5] = "2024";
    named[8] = "1"; // every work shown: the windows decide
    const extra = withColumns ? BROWSE_HEADER.map((c) => BROWSE[id]?.[c] ?? "") : [];
    return [...named, ...extra];
  });
  await writeFile(
    path.join(content, "audiovisuals.csv"),
    [header, ...rows].map((r) => r.map(cell).join(",")).join("\n") + "\n",
  );
  const availability = parseCsv(await readFile(path.join(content, "availability.csv"), "utf8"));
  const kept = availability.slice(1).filter((r) => r[1] === "domain-2.example");
  const own = rows.map((r) => [r[0]!, "domain-1.example", ...window(Number(r[0]))]);
  await writeFile(
    path.join(content, "availability.csv"),
    [availability[0]!, ...own, ...kept].map((r) => r.map(cell).join(",")).join("\n") + "\n",
  );
  return content;
}

/** A tiny CSV reader (quotes, doubled quotes, commas and line breaks in quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\n") {
      endField();
      rows.push(row);
      row = [];
    } else if (c !== "\r") field += c;
  }
  if (field !== "" || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

export interface Expected {
  id: number;
  name: string;
  year: number | null;
  from: string;
  until: string | null;
  isNew: boolean;
  isLeaving: boolean;
  names: Record<string, string>;
}

/** The listed works of a domain by the contract's formulas, in name order (collation, then id). */
export async function expectedWorks(content: string, host: string): Promise<Expected[]> {
  const [domainHeader, ...domains] = parseCsv(
    await readFile(path.join(content, "domains.csv"), "utf8"),
  );
  const d = Object.fromEntries(
    domainHeader!.map((c, i) => [c, domains.find((r) => r[0] === host)![i]!]),
  );
  const newDays = Number(d.new_days || 30);
  const leavingDays = d.leaving_days === "" ? 30 : Number(d.leaving_days);
  const [header, ...works] = parseCsv(
    await readFile(path.join(content, "audiovisuals.csv"), "utf8"),
  );
  const col = (row: string[], name: string) => row[header!.indexOf(name)] ?? "";
  const windows = parseCsv(await readFile(path.join(content, "availability.csv"), "utf8"))
    .slice(1)
    .filter((r) => r[1] === host);
  const today = dayNumber(T);
  const listed: Expected[] = [];
  for (const row of works) {
    const id = Number(col(row, "id"));
    const w = windows.find((r) => Number(r[0]) === id);
    if (w === undefined || col(row, "status_global") === "0") continue;
    const from = dayNumber(w[2]!);
    const until = w[3] ? dayNumber(w[3]) : Infinity;
    if (!(from <= today && today <= until)) continue;
    const names: Record<string, string> = {};
    for (const lang of ["es", "en", "ca", "gl", "eu", "va", "fr"]) {
      const name = col(row, `name_${lang}`);
      if (name) names[lang] = name;
    }
    listed.push({
      id,
      name: col(row, "name"),
      year: col(row, "year") ? Number(col(row, "year")) : null,
      from: w[2]!,
      until: w[3] || null,
      isNew: today - from < newDays,
      isLeaving: until - today < leavingDays,
      names,
    });
  }
  const collator = new Intl.Collator(d.locale, { sensitivity: "base", numeric: true });
  return listed.sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}

/** The title a version in `lang` shows. */
export const shownTitle = (w: Expected, lang: string) =>
  w.names[lang] ?? (lang === "va" ? w.names.ca : undefined) ?? w.name;

/**
 * The works of a version in `lang` in its name order: by the titles it shows, in its language's
 * collation (Valencian's is Catalan's), ties by id; the domain's order when it shows no title of
 * its own.
 */
export function versionOrder(works: Expected[], lang: string): Expected[] {
  if (works.every((w) => shownTitle(w, lang) === w.name)) return works;
  const collator = new Intl.Collator(lang === "va" ? "ca" : lang, {
    sensitivity: "base",
    numeric: true,
  });
  return [...works].sort(
    (a, b) => collator.compare(shownTitle(a, lang), shownTitle(b, lang)) || a.id - b.id,
  );
}

/** Text of HTML with its entities decoded. */
export const unescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
/** The cards of a page: ids and titles in order, and which carry the leaving badge. */
export function cardsOf(text: string) {
  return [
    ...text.matchAll(
      /<li class="card"><a href="[^"]*audiovisual-detail\/(\d+)\/[^"]*">.*?<span class="card-title">(.*?)<\/span>.*?<\/li>/g,
    ),
  ].map((m) => ({
    id: Number(m[1]),
    title: unescape(m[2]!),
    leaving: m[0].includes("badge-leaving"),
  }));
}
