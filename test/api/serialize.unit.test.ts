import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  detailTail,
  directorJson,
  directorObject,
  elementPieces,
  jsonText,
} from "../../src/api/serialize.ts";
import { LANGUAGES } from "../../src/content/schema.ts";
import { director, DOMAIN, work } from "../helpers/model.ts";

const text = fc.string({ unit: "grapheme", maxLength: 40 });
const optionalText = fc.option(
  fc.oneof(text, fc.constantFrom('"', "\\", "\u2028", "</script>", "\n\t", "é ñ 中文 🎬")),
  { nil: null },
);

describe("jsonText", () => {
  it("is JSON.stringify of any text: quotes, backslashes, control characters, lone and paired surrogates, U+2028", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 30 }), (value) => {
        expect(jsonText(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
    for (const value of [
      '"',
      "\\",
      "\u0000",
      "\u001f",
      " ",
      "\u007f",
      "\ud800",
      "\udfff",
      "\ud83c\udfac",
      "\u2028\u2029",
      "é ñ 中文",
      "",
    ]) {
      expect(jsonText(value)).toBe(JSON.stringify(value));
    }
    expect(jsonText(null)).toBe("null");
  });
});

describe("a director's JSON", () => {
  it("is JSON.stringify of the director record, whatever the texts, the domain's language and the photo", () => {
    fc.assert(
      fc.property(
        fc.record({
          id: fc.integer({ min: 1, max: 2 ** 31 }),
          name: text,
          slug: text,
          photo: fc.option(text, { nil: null }),
          show_img: fc.boolean(),
          description: optionalText,
        }),
        fc.array(optionalText, { minLength: LANGUAGES.length, maxLength: LANGUAGES.length }),
        fc.constantFrom("es", "en", "ca", "gl", "eu", "va", "fr", "de", "pt-BR"),
        (fields, texts, locale) => {
          const bios = Object.fromEntries(
            LANGUAGES.map((language, i) => [`description_${language}`, texts[i]!]),
          );
          const record = director(fields.id, { ...fields, ...bios });
          const imageUrl = (rel: string) => `https://media.example/m/${rel}`;
          // Twice in two domains: the part shared by every domain is made once.
          for (const domain of [
            { ...DOMAIN, locale },
            { ...DOMAIN, locale: "en" },
          ]) {
            expect(directorJson(record, domain, imageUrl)).toBe(
              JSON.stringify(directorObject(record, domain, imageUrl)),
            );
          }
        },
      ),
    );
  });
});

describe("a listing element and a retrieve document", () => {
  it("are JSON.stringify of the contract's records, keys in order, whatever the texts, numbers and nulls", () => {
    const day = fc
      .integer({ min: 0, max: 20_000 })
      .map((n) => new Date(Date.UTC(1990, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        fc.record({
          id: fc.integer({ min: 1, max: 2 ** 31 }),
          name: text,
          slug: text,
          cover: text,
          audiovisual_type: fc.constantFrom(
            null,
            "peliculas",
            "documentales",
            "cortometrajes",
            "artes-escenicas",
          ),
          year: fc.option(fc.integer({ min: 1870, max: 2100 }), { nil: null }),
          duration: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
          status_global: fc.integer({ min: 0, max: 1_000_000 }),
        }),
        fc.boolean(),
        day,
        fc.option(day, { nil: null }),
        (fields, isNew, from, until) => {
          const listed = {
            work: work(fields.id, fields),
            director: null,
            window: { from, until },
            isNew,
            isLeaving: false,
          };
          const imageUrl = (rel: string) => `https://m.example/media/${rel}`;
          const { before, after } = elementPieces(listed, imageUrl);
          const element = {
            id: fields.id,
            name: fields.name,
            cover: imageUrl(fields.cover),
            director: null,
            audiovisual_type: fields.audiovisual_type,
            is_new: isNew,
            progress_loan_user: null,
            streaming: {},
            slug: fields.slug,
            status_global: fields.status_global,
          };
          expect(`${before}null${after}}`).toBe(JSON.stringify(element));
          const detail = {
            ...element,
            year: fields.year,
            duration: fields.duration,
            created: from,
            expire: until,
          };
          expect(`${before}null${after}${detailTail(listed)}`).toBe(JSON.stringify(detail));
        },
      ),
    );
  });
});
