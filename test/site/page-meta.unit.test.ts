import { describe, expect, it } from "vitest";
import { firstSentence } from "../../src/site/page-meta.ts";
import { scriptJson } from "../../src/site/structured-data.ts";
import { ogLocale } from "../../src/site/templates/head.ts";
import { escape as xmlEscape } from "../../src/web/xml.ts";

describe("the first sentence of a biography", () => {
  it("ends at the sentence's end, not at the dots and brackets inside it, in Spanish and English", () => {
    expect(
      firstSentence(
        "Louis Lumière (Besanzón, 1864 – Bandol, 1948) dirigía con su hermano la fábrica de Lyon. Juntos patentaron el cinematógrafo.",
        "es",
      ),
    ).toBe(
      "Louis Lumière (Besanzón, 1864 – Bandol, 1948) dirigía con su hermano la fábrica de Lyon.",
    );
    expect(
      firstSentence(
        "Dr. Caligari's author, Mr. Mayer, wrote it in 1919. It was filmed later.",
        "en",
      ),
    ).toBe("Dr. Caligari's author, Mr. Mayer, wrote it in 1919.");
    expect(firstSentence("  Una sola frase\nen dos líneas sin punto final ", "es")).toBe(
      "Una sola frase en dos líneas sin punto final",
    );
    expect(firstSentence("¿Quién fue? Nadie lo sabe.", "es")).toBe("¿Quién fue?");
  });
});

describe("og:locale", () => {
  it("takes the region of a locale in the page's language, else the language's usual one", () => {
    expect(ogLocale("es", "es")).toBe("es_ES");
    expect(ogLocale("en", "en")).toBe("en_GB");
    expect(ogLocale("en-US", "en")).toBe("en_US");
    expect(ogLocale("es-MX", "es")).toBe("es_MX");
    // A Catalan domain's Spanish version takes Spanish's usual region.
    expect(ogLocale("ca-ES", "es")).toBe("es_ES");
    expect(ogLocale("ca-AD", "ca")).toBe("ca_AD");
    expect(ogLocale("gl", "gl")).toBe("gl_ES");
    expect(ogLocale("eu", "eu")).toBe("eu_ES");
    expect(ogLocale("fr-BE", "fr")).toBe("fr_BE");
    expect(ogLocale("fr", "fr")).toBe("fr_FR");
    // Valencian pages are Catalan to Open Graph.
    expect(ogLocale("va", "ca-valencia")).toBe("ca_ES");
    expect(ogLocale("va-AD", "ca-valencia")).toBe("ca_AD");
    // A locale without an interface of its own: the pages are Spanish.
    expect(ogLocale("zh-Hant-TW", "es")).toBe("es_ES");
  });
});

describe("JSON in a script element", () => {
  it("cannot close the element, open a comment or hold what HTML forbids, and parses back to the same value", () => {
    const value = {
      name: "</script><script>alert(1)</script> <!-- & \u2028\u2029 \uFFFE\uFFFF \uD800 \u0001 -->",
    };
    const text = scriptJson(value);
    // Nothing an HTML page may not hold either: noncharacters, lone surrogates, controls.
    // eslint-disable-next-line no-control-regex -- the controls a page may not hold
    expect(text).not.toMatch(/[<>&\u2028\u2029\uFFFE\uFFFF\uD800-\uDFFF\u0000-\u001F]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe("text for XML", () => {
  it("escapes markup and drops the characters XML 1.0 forbids, keeping tabs, line breaks and astral characters", () => {
    expect(xmlEscape(`a<b>&"c'\u0001\u000B\uFFFE\uD800x\tz\n🎬`)).toBe(
      "a&lt;b&gt;&amp;&quot;c&#39;x\tz\n🎬",
    );
  });
});

describe("the first sentence of a biography with initials and abbreviations", () => {
  it("runs on past initials and titles", () => {
    expect(
      firstSentence(
        "F. W. Murnau (Bielefeld, 1888 – Santa Bárbara, 1931) estudió filología. Luego dirigió.",
        "es",
      ),
    ).toBe("F. W. Murnau (Bielefeld, 1888 – Santa Bárbara, 1931) estudió filología.");
    expect(
      firstSentence(
        "Robert J. Flaherty (Iron Mountain, 1884 – 1951) was an explorer. He filmed Nanook.",
        "en",
      ),
    ).toBe("Robert J. Flaherty (Iron Mountain, 1884 – 1951) was an explorer.");
    expect(firstSentence("El Sr. López vino. Fin.", "es")).toBe("El Sr. López vino.");
  });
});
