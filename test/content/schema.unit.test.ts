import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FILES } from "../../src/content/csv-files.ts";
import { LIMITS } from "../../src/content/row-limits.ts";
import { domainRow, isRealDate } from "../../src/content/schema.ts";

/** The former isRealDate, through Date.UTC: the reference for the written-out one. */
function isRealDateByDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

describe("isRealDate", () => {
  it("agrees with Date.UTC on every day of the years around the edges, and on malformed dates", () => {
    const years = [
      0, 1, 4, 99, 100, 104, 200, 400, 1600, 1700, 1870, 1900, 2000, 2023, 2024, 2100, 2400, 9999,
    ];
    for (const year of years) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          expect(isRealDate(text), text).toBe(isRealDateByDate(text));
        }
      }
    }
    for (const text of [
      "",
      "2024-1-01",
      "2024-01-1",
      "2024/01/01",
      "2024-01-01 ",
      " 2024-01-01",
      "+024-01-01",
      "2024-0a-01",
      "２０２４-01-01",
      "2024-01-01\n",
      "20240-01-01",
    ]) {
      expect(isRealDate(text), text).toBe(isRealDateByDate(text));
    }
  });
});

// Cells as the CSV reader gives them: trimmed text or null. Values near every check's edges.
const CELLS = [
  null,
  "",
  "0",
  "1",
  "01",
  "-0",
  "-1",
  "+1",
  "1e3",
  " 1",
  "1.0",
  "١",
  "１",
  "7",
  ...[LIMITS.year, LIMITS.duration, LIMITS.status].flatMap(([min, max]) =>
    [min - 1, min, max, max + 1].map(String),
  ),
  "9".repeat(LIMITS.idDigits),
  "1" + "0".repeat(LIMITS.idDigits),
  "true",
  "false",
  "True",
  "yes",
  "peliculas",
  "documentales",
  "cortometrajes",
  "artes-escenicas",
  "comedia",
  "a",
  "a-b",
  "a--b",
  "-a",
  "A",
  "Élan",
  "a b",
  "a\nb",
  "a\rb",
  "a\u2028b",
  "a\u2029b",
  "uno.example",
  "covers/a.png",
  "2024-02-29",
  "2023-02-29",
  "29/02/2024",
  "29/02/2023",
  "1/3/2024",
  "02/29/2024",
  "2024/02/29",
  "29-02-2024",
  "VERDADERO",
  "Falso",
  "cert",
  "EGIA",
  "gezurra",
  "VRAI",
  "faux",
  "TRUE",
  "0099-12-31",
  "0100-01-01",
  "2023-13-01",
  "__proto__",
  "constructor",
  // The browsing columns' edges (src/content/browse-columns.ts).
  "ES",
  "es",
  "ES FR",
  "ES, FR",
  "ES;FR ES",
  "XX",
  "ZZ",
  "UK",
  "XK",
  "E",
  ",",
  "ca-valencia",
  "va",
  "VA",
  "en-GB",
  "EN-gb",
  "e$",
  "qaa",
  "es_ES",
  "TP",
  "18",
  "+16",
  "mayores de 18 años",
  "x".repeat(13),
  "audio-description captions",
  "captions captions",
  "Captions, sign-language",
  "subtitles",
  ...[LIMITS.slug, LIMITS.imagePath, LIMITS.oneLine, LIMITS.longText].flatMap((n) => [
    "x".repeat(n),
    "x".repeat(n + 1),
  ]),
];
const cell = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CELLS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

/** A valid row of each file; the property changes a few of its cells. */
const VALID: Record<
  "directors" | "audiovisuals" | "availability",
  Record<string, string | null>
> = {
  directors: {
    id: "1",
    name: "Alice Guy",
    slug: "alice-guy",
    photo: "photos/a.png",
    show_img: "true",
    description: null,
    description_es: "Pionera.",
    description_en: "Pioneer.",
    description_ca: null,
    description_gl: null,
    description_eu: null,
    description_va: null,
    description_fr: null,
    heading: null,
  },
  audiovisuals: {
    id: "10",
    name: "Viaje a la Luna",
    slug: "viaje-a-la-luna",
    audiovisual_type: "cortometrajes",
    director_id: "1",
    year: "1902",
    duration: "14",
    cover: "covers/a.png",
    status_global: "1",
    synopsis: null,
    synopsis_es: "Unos astrónomos viajan a la Luna.",
    synopsis_en: null,
    synopsis_ca: null,
    synopsis_gl: null,
    synopsis_eu: null,
    synopsis_va: null,
    synopsis_fr: null,
    country: "FR",
    audio_languages: "fr es",
    subtitle_languages: null,
    age_rating: "TP",
    accessibility: null,
    name_es: null,
    name_en: "A Trip to the Moon",
    name_ca: null,
    name_gl: null,
    name_eu: null,
    name_va: null,
    name_fr: "Le Voyage dans la Lune",
  },
  availability: {
    audiovisual_id: "10",
    domain: "uno.example",
    available_from: "2020-01-01",
    available_until: "2020-12-31",
  },
};

describe.each(["directors", "audiovisuals", "availability"] as const)(
  "the fast check of %s",
  (name) => {
    const { schema, fast } = FILES[name];
    // The works' schema is piped into a transform (the synopses gathered): its columns are its input's.
    const shape = "shape" in schema ? schema.shape : schema.in.shape;
    const columns = Object.keys(shape);
    const changes = fc.array(fc.tuple(fc.constantFrom(...columns), cell), { maxLength: 3 });

    it("returns what the schema returns for a valid row, keys in the same order, and undefined for any other", () => {
      fc.assert(
        fc.property(changes, (changed) => {
          const cells = { ...VALID[name], ...Object.fromEntries(changed) };
          const result = schema.safeParse(cells);
          const value = fast(cells);
          if (!result.success) {
            expect(value).toBeUndefined();
          } else {
            expect(value).toStrictEqual(result.data);
            expect(Object.keys(value!)).toEqual(Object.keys(result.data));
          }
        }),
        { numRuns: 3000 },
      );
    });
  },
);

/** Each limited column of the three large files, the limit it takes from LIMITS, and a valid cell of that length. */
const LENGTH_EDGES = [
  ["directors", "name", LIMITS.oneLine, (n: number) => "x".repeat(n)],
  ["directors", "slug", LIMITS.slug, (n: number) => "x".repeat(n)],
  ["directors", "photo", LIMITS.imagePath, (n: number) => "x".repeat(n)],
  ["directors", "description_fr", LIMITS.longText, (n: number) => "x".repeat(n)],
  ["directors", "heading", LIMITS.oneLine, (n: number) => "x".repeat(n)],
  ["audiovisuals", "name", LIMITS.oneLine, (n: number) => "x".repeat(n)],
  ["audiovisuals", "slug", LIMITS.slug, (n: number) => "x".repeat(n)],
  ["audiovisuals", "cover", LIMITS.imagePath, (n: number) => "x".repeat(n)],
  ["audiovisuals", "synopsis_es", LIMITS.longText, (n: number) => "x".repeat(n)],
  ["audiovisuals", "name_fr", LIMITS.oneLine, (n: number) => "x".repeat(n)],
  ["audiovisuals", "id", LIMITS.idDigits, (n: number) => "9".repeat(n)],
  ["audiovisuals", "director_id", LIMITS.idDigits, (n: number) => "9".repeat(n)],
  ["availability", "audiovisual_id", LIMITS.idDigits, (n: number) => "9".repeat(n)],
] as const;

const RANGE_EDGES = [
  ["year", LIMITS.year],
  ["duration", LIMITS.duration],
  ["status_global", LIMITS.status],
] as const;

describe("the limits of the cells, in both checks", () => {
  it.each(LENGTH_EDGES)("%s.%s: %i passes, one more fails", (name, column, limit, cellOf) => {
    const { schema, fast } = FILES[name];
    const at = { ...VALID[name], [column]: cellOf(limit) };
    const past = { ...VALID[name], [column]: cellOf(limit + 1) };
    expect(schema.safeParse(at).success).toBe(true);
    expect(fast(at)).toBeDefined();
    expect(schema.safeParse(past).success).toBe(false);
    expect(fast(past)).toBeUndefined();
  });

  it.each(RANGE_EDGES)("audiovisuals.%s: its ends pass, one past either fails", (column, range) => {
    const { schema, fast } = FILES.audiovisuals;
    const row = (n: number) => ({ ...VALID.audiovisuals, [column]: String(n) });
    for (const n of range) {
      expect(schema.safeParse(row(n)).success).toBe(true);
      expect(fast(row(n))).toBeDefined();
    }
    for (const n of [range[0] - 1, range[1] + 1]) {
      expect(schema.safeParse(row(n)).success).toBe(false);
      expect(fast(row(n))).toBeUndefined();
    }
  });

  it("words each limit as before: plain to four digits, grouped past them", () => {
    const issue = (cells: Record<string, string | null>) => {
      const result = FILES.directors.schema.safeParse({ ...VALID.directors, ...cells });
      return result.success ? null : result.error.issues[0]!.message;
    };
    expect(issue({ name: "x".repeat(LIMITS.oneLine + 1) })).toBe("is longer than 1000 characters");
    expect(issue({ slug: "x".repeat(LIMITS.slug + 1) })).toBe("is longer than 200 characters");
    expect(issue({ photo: "x".repeat(LIMITS.imagePath + 1) })).toBe(
      "is longer than 500 characters",
    );
    expect(issue({ description: "x".repeat(LIMITS.longText + 1) })).toBe(
      "is longer than 100,000 characters",
    );
  });

  it("holds a domain's day counts to LIMITS.days", () => {
    const row = (days: string) =>
      domainRow.safeParse({
        ...Object.fromEntries(Object.keys(domainRow.in.shape).map((column) => [column, null])),
        domain: "uno.example",
        name: "Uno",
        new_days: days,
      });
    const [min, max] = LIMITS.days;
    expect(row(String(min)).success).toBe(true);
    expect(row(String(max)).success).toBe(true);
    const past = row(String(max + 1));
    expect(past.success).toBe(false);
    expect(past.error?.issues[0]?.message).toBe(
      `expected an integer between ${min} and ${max}, got "${max + 1}"`,
    );
  });
});
