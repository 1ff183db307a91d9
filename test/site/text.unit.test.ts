import { describe, expect, it } from "vitest";
import type { Director } from "../../src/content/schema.ts";
import { biography } from "../../src/site/biography.ts";
import { escape, html, raw } from "../../src/web/html.ts";
import { stringsFor } from "../../src/web/i18n.ts";

const director = (texts: Partial<Director>): Director => ({
  id: 1,
  name: "N",
  slug: "n",
  photo: null,
  show_img: false,
  description: null,
  description_es: null,
  description_en: null,
  description_ca: null,
  description_gl: null,
  description_eu: null,
  description_va: null,
  description_fr: null,
  ...texts,
});

describe("html", () => {
  it("escapes interpolated text, attribute quotes included, and keeps nested html", () => {
    const title = `<b title='x'>"Tom" & Jerry</b>`;
    const out = html`<a title="${title}">${html`<i>${title}</i>`}</a>`.value;
    expect(out).toBe(
      `<a title="&lt;b title=&#39;x&#39;&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;">` +
        `<i>&lt;b title=&#39;x&#39;&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;</i></a>`,
    );
    expect(escape("plain text")).toBe("plain text");
    expect(html`${["<", raw("<br>"), 3, null, undefined, false]}`.value).toBe("&lt;<br>3");
  });

  it("drops the characters XML forbids, keeping tabs, line breaks and surrogate pairs", () => {
    expect(escape("Viaje a la \uFFFELuna\uFFFF")).toBe("Viaje a la Luna");
    expect(escape("a\u0000b\u0007c\td\ne\r")).toBe("abc\td\ne\r");
    expect(escape("lone \uD800 and \uDC00, a pair 🎬 & \uD83C")).toBe(
      "lone  and , a pair 🎬 &amp; ",
    );
    expect(html`<p title="${"x\uFFFF"}">${"<\uFFFE>"}</p>`.value).toBe('<p title="x">&lt;&gt;</p>');
  });
});

describe("biography", () => {
  it("prefers the domain's language, then Spanish, English, the untagged text, then any", () => {
    const all = director({
      description: "d",
      description_es: "es",
      description_en: "en",
      description_ca: "ca",
      description_fr: "fr",
    });
    expect(biography(all, "ca")).toEqual({ text: "ca", lang: "ca" });
    expect(biography(all, "en-GB")).toEqual({ text: "en", lang: "en" });
    expect(biography(all, "gl")).toEqual({ text: "es", lang: "es" });
    // Valencian falls back to Catalan before Spanish, as its interface texts do.
    expect(biography(all, "va")).toEqual({ text: "ca", lang: "ca" });
    expect(
      biography(director({ description_va: "va", description_ca: "ca" }), "ca-valencia"),
    ).toEqual({ text: "va", lang: "va" });
    expect(biography(director({ description_en: "en", description: "d" }), "es")).toEqual({
      text: "en",
      lang: "en",
    });
    expect(biography(director({ description: "d", description_fr: "fr" }), "es")).toEqual({
      text: "d",
      lang: null,
    });
    expect(biography(director({ description_fr: "fr" }), "es")).toEqual({ text: "fr", lang: "fr" });
    expect(biography(director({}), "es")).toBeNull();
  });
});

describe("interface language", () => {
  it("is the locale's language among the seven, Valencian written ca-valencia, and Spanish otherwise", () => {
    expect(stringsFor("en").lang).toBe("en");
    expect(stringsFor("en-GB").lang).toBe("en");
    expect(stringsFor("es").lang).toBe("es");
    expect(stringsFor("ca").lang).toBe("ca");
    expect(stringsFor("fr-BE").lang).toBe("fr");
    expect(stringsFor("va").lang).toBe("ca-valencia");
    expect(stringsFor("ca-ES-valencia").code).toBe("va");
    expect(stringsFor("de").lang).toBe("es");
    expect(stringsFor("pt-BR").code).toBe("es");
  });
});
