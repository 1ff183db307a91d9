import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseCsv as csvRows } from "./browse-fixture.ts";

/**
 * The filter panel's answers computed the plain way, from the CSV rows (never the program's
 * model): the contract's listing, new and leaving formulas with day arithmetic, the four
 * orderings with Intl's collation, and each facet's values with Array.filter.
 */

/** The rows of a CSV file as records by column name (the browse pages' tiny reader). */
export function parseCsv(text: string): Record<string, string>[] {
  const [header, ...body] = csvRows(text);
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ""])));
}

const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

export interface RefWork {
  id: number;
  name: string;
  names: Record<string, string>;
  type: string;
  year: number | null;
  director: { slug: string; name: string } | null;
  country: string[];
  audio: string[];
  subtitles: string[];
  age: string[];
  accessibility: string[];
  isNew: boolean;
  isLeaving: boolean;
}

export type Facet =
  | "category"
  | "decade"
  | "director"
  | "country"
  | "audio"
  | "subtitles"
  | "accessibility"
  | "age"
  | "availability";
export const FACETS: Facet[] = [
  "category",
  "decade",
  "director",
  "country",
  "audio",
  "subtitles",
  "accessibility",
  "age",
  "availability",
];

/** A work's values of a facet, as the URL writes them. */
export function valuesOf(w: RefWork, facet: Facet): string[] {
  switch (facet) {
    case "category":
      return w.type === "" ? [] : [w.type];
    case "decade":
      return w.year === null ? [] : [String(w.year - (w.year % 10))];
    case "director":
      return w.director === null ? [] : [w.director.slug];
    case "availability":
      return [...(w.isNew ? ["new"] : []), ...(w.isLeaving ? ["leaving"] : [])];
    default:
      return w[facet];
  }
}

/** The title a version in `lang` shows: name_<lang>, Valencian falling back to Catalan, else name. */
export const shownTitle = (w: RefWork, lang: string) =>
  w.names[lang] ?? (lang === "va" ? w.names.ca : undefined) ?? w.name;

/**
 * The listed works of `domain` at `date`, in the four orderings of the version in `lang` (the
 * locale's without one): by the titles it shows in its language's collation, or by `name` in the
 * locale's where it shows no title of its own.
 */
export async function referenceWorks(
  content: string,
  domain: string,
  date: string,
  lang?: string,
): Promise<{ name: RefWork[]; "-name": RefWork[]; year: RefWork[]; "-year": RefWork[] }> {
  const read = async (file: string) => parseCsv(await readFile(path.join(content, file), "utf8"));
  const [domains, directors, works, windows] = await Promise.all(
    ["domains.csv", "directors.csv", "audiovisuals.csv", "availability.csv"].map(read),
  );
  const row = domains!.find((d) => d.domain === domain)!;
  const newDays = Number(row.new_days);
  const leavingDays = row.leaving_days ? Number(row.leaving_days) : 30;
  const T = day(date);
  const byId = new Map(directors!.map((d) => [d.id, d]));
  const windowOf = new Map(
    windows!.filter((w) => w.domain === domain).map((w) => [w.audiovisual_id, w]),
  );
  const list = (cell: string | undefined) => (cell ? cell.split(" ").filter(Boolean) : []);
  const listed: RefWork[] = [];
  for (const w of works!) {
    const window = windowOf.get(w.id);
    if (window === undefined || w.status_global !== "1") continue;
    const from = day(window.available_from!);
    const until = window.available_until ? day(window.available_until) : Infinity;
    if (!(from <= T && T <= until)) continue;
    const director = w.director_id ? byId.get(w.director_id) : undefined;
    const names: Record<string, string> = {};
    for (const [k, v] of Object.entries(w)) if (k.startsWith("name_") && v) names[k.slice(5)] = v;
    listed.push({
      id: Number(w.id),
      name: w.name!,
      names,
      type: w.audiovisual_type ?? "",
      year: w.year ? Number(w.year) : null,
      director: director ? { slug: director.slug!, name: director.name! } : null,
      country: list(w.country),
      audio: list(w.audio_languages),
      subtitles: list(w.subtitle_languages),
      age: list(w.age_rating),
      accessibility: list(w.accessibility),
      isNew: T - from < newDays,
      isLeaving: until - T < leavingDays,
    });
  }
  const own = lang !== undefined && listed.some((w) => shownTitle(w, lang) !== w.name);
  const title = (w: RefWork) => (own ? shownTitle(w, lang) : w.name);
  const collator = new Intl.Collator(own ? (lang === "va" ? "ca" : lang) : row.locale, {
    sensitivity: "base",
    numeric: true,
  });
  const name = [...listed].sort((a, b) => collator.compare(title(a), title(b)) || a.id - b.id);
  const position = new Map(name.map((w, i) => [w, i]));
  const byYear = (direction: number) => (a: RefWork, b: RefWork) =>
    a.year === b.year
      ? position.get(a)! - position.get(b)!
      : a.year === null
        ? 1
        : b.year === null
          ? -1
          : (a.year - b.year) * direction;
  return {
    name,
    "-name": [...listed].sort((a, b) => collator.compare(title(b), title(a)) || a.id - b.id),
    year: [...name].sort(byYear(1)),
    "-year": [...name].sort(byYear(-1)),
  };
}

export type Selection = Partial<Record<Facet, string[]>>;

/** The works matching every facet of the selection (OR within a facet, AND between facets). */
export function filterWorks(works: RefWork[], selection: Selection, except?: Facet): RefWork[] {
  return works.filter((w) =>
    Object.entries(selection).every(
      ([facet, values]) =>
        facet === except ||
        values.length === 0 ||
        valuesOf(w, facet as Facet).some((v) => values.includes(v)),
    ),
  );
}

/** A facet's count for each value: over the works matching every other facet. */
export function facetCounts(works: RefWork[], selection: Selection, facet: Facet) {
  const counts = new Map<string, number>();
  for (const w of filterWorks(works, selection, facet))
    for (const v of valuesOf(w, facet)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

/** The URL query of a selection, in the panel's order. */
export function query(selection: Selection, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const facet of FACETS)
    for (const v of selection[facet] ?? []) {
      if (facet === "availability") params.append(v, "1");
      else params.append(facet, v);
    }
  for (const [k, v] of Object.entries(extra)) params.append(k, v);
  return `?${params.toString()}`;
}
