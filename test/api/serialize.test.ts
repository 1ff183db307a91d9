import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { directorJson, directorObject } from "../../src/api/serialize.ts";
import { LANGUAGES } from "../../src/content/schema.ts";
import { director, DOMAIN } from "../helpers/model.ts";

const text = fc.string({ unit: "grapheme", maxLength: 40 });
const optionalText = fc.option(fc.oneof(text, fc.constantFrom('"', "\\", "\u2028", "</script>", "\n\t", "é ñ 中文 🎬")), { nil: null });

describe("a director's JSON", () => {
  it("is JSON.stringify of the director record, whatever the texts, the domain's language and the photo", () => {
    fc.assert(
      fc.property(
        fc.record({ id: fc.integer({ min: 1, max: 2 ** 31 }), name: text, slug: text, photo: fc.option(text, { nil: null }), show_img: fc.boolean(), description: optionalText }),
        fc.array(optionalText, { minLength: LANGUAGES.length, maxLength: LANGUAGES.length }),
        fc.constantFrom("es", "en", "ca", "gl", "eu", "va", "fr", "de", "pt-BR"),
        (fields, texts, locale) => {
          const bios = Object.fromEntries(LANGUAGES.map((language, i) => [`description_${language}`, texts[i]!]));
          const record = director(fields.id, { ...fields, ...bios });
          const imageUrl = (rel: string) => `https://media.example/m/${rel}`;
          // Twice in two domains: the part shared by every domain is made once.
          for (const domain of [{ ...DOMAIN, locale }, { ...DOMAIN, locale: "en" }]) {
            expect(directorJson(record, domain, imageUrl)).toBe(JSON.stringify(directorObject(record, domain, imageUrl)));
          }
        },
      ),
    );
  });
});
