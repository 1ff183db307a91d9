import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FILES } from "../../src/content/csv-files.ts";
import { isRealDate } from "../../src/content/schema.ts";

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
  "1869",
  "1870",
  "2100",
  "2101",
  "100000",
  "100001",
  "1000000",
  "1000001",
  "9999999999",
  "10000000000",
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
  "x".repeat(200),
  "x".repeat(201),
  "x".repeat(500),
  "x".repeat(501),
  "x".repeat(1000),
  "x".repeat(1001),
  "x".repeat(100_000),
  "x".repeat(100_001),
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
