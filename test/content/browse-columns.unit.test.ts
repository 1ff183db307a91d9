import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FILES } from "../../src/content/csv-files.ts";
import { checkContent } from "../../src/content/load.ts";
import { formatProblem, formatWarning, sortProblems } from "../../src/errors.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const HEADER =
  "id,name,slug,cover,country,audio_languages,subtitle_languages,age_rating,accessibility,name_en,name_fr";
/** A works file of the given browsing cells (country … name_fr), one row per work from id 10. */
const works = (rows: string[][]) =>
  `${HEADER}\n${rows.map((cells, i) => [10 + i, `Obra ${i}`, `obra-${i}`, "covers/a.png", ...cells].join(",")).join("\n")}\n`;
const availability = (n: number) =>
  "audiovisual_id,domain,available_from\n" +
  Array.from({ length: n }, (_, i) => `${10 + i},uno.example,2020-01-01`).join("\n") +
  "\n";

async function check(rows: string[][]) {
  const content = await writeContent(path.join(dir, "content"), {
    audiovisuals: works(rows),
    availability: availability(rows.length),
  });
  const result = await checkContent(content);
  return {
    problems: sortProblems(result.problems).map((p) =>
      formatProblem(p).replaceAll(content, "content"),
    ),
    warnings: result.warnings.map((p) => formatWarning(p).replaceAll(content, "content")),
    works: result.catalogue?.works,
  };
}

describe("the browsing columns of audiovisuals.csv", () => {
  it("read good values into one browse object: codes upper case, tags canonical, features in order", async () => {
    const { problems, warnings, works } = await check([
      ['"es, fr"', "va EN-gb", "ca;es", "TP", '"sign-language, captions"', "Trip", "Voyage"],
      ["xk", "es", "", "+16", "audio-description", "", ""],
      ["", "", "", "", "", "", ""],
      ["ES ES", "es es-ES", "", "18", "captions captions", "", ""],
    ]);
    expect(problems).toEqual([]);
    expect(warnings).toEqual([]);
    expect(works!.map((w) => w.browse)).toEqual([
      {
        names: { en: "Trip", fr: "Voyage" },
        countries: ["ES", "FR"],
        audio: ["ca-valencia", "en-GB"],
        subtitles: ["ca", "es"],
        age: "TP",
        accessibility: ["captions", "sign-language"],
      },
      { countries: ["XK"], audio: ["es"], age: "+16", accessibility: ["audio-description"] },
      undefined,
      { countries: ["ES"], audio: ["es", "es-ES"], age: "18", accessibility: ["captions"] },
    ]);
    // A work without the columns is the very object it was: no `browse` key at all.
    expect(Object.keys(works![2]!)).not.toContain("browse");
  });

  it("reports every bad value as FILE:LINE: column: message, all at once", async () => {
    const { problems, works } = await check([
      ["XX", "e$", "es_ES", '"mayores de 18 años"', "audiodescription", "", ""],
      ['"ES, ZZ, UK"', "", "", "", "subtitles", "", ""],
      ["E", '","', "", "x".repeat(13), "", "", ""],
    ]);
    const f = "content/audiovisuals.csv";
    expect(problems).toEqual([
      `${f}:2: accessibility: unknown feature "audiodescription": did you mean "audio-description"? (audio-description, captions, sign-language)`,
      `${f}:2: age_rating: expected one rating as your scheme writes it (TP, 7, 12, 16, 18), got "mayores de 18 años"`,
      `${f}:2: audio_languages: expected language tags like es, en-GB or ca-valencia separated by spaces, got "e$"`,
      `${f}:2: country: "XX" is not an ISO 3166-1 country code: write two letters like ES, FR or US, several separated by spaces`,
      `${f}:2: subtitle_languages: expected language tags like es, en-GB or ca-valencia separated by spaces, got "es_ES"`,
      `${f}:3: accessibility: unknown feature "subtitles" (audio-description, captions, sign-language)`,
      `${f}:3: country: "ZZ", "UK" are not ISO 3166-1 country codes: write two letters like ES, FR or US, several separated by spaces`,
      `${f}:4: age_rating: expected one rating as your scheme writes it (TP, 7, 12, 16, 18), got "xxxxxxxxxxxxx"`,
      `${f}:4: audio_languages: expected language tags like es, en-GB or ca-valencia separated by spaces, got ","`,
      `${f}:4: country: "E" is not an ISO 3166-1 country code: write two letters like ES, FR or US, several separated by spaces`,
    ]);
    expect(works).toBeUndefined();
  });

  it("holds other titles to the name's rules", async () => {
    const { problems } = await check([["", "", "", "", "", '"two\nlines"', "x".repeat(1001)]]);
    expect(problems).toEqual([
      "content/audiovisuals.csv:2: name_en: must be on one line: remove the line break",
      "content/audiovisuals.csv:2: name_fr: is longer than 1000 characters",
    ]);
  });

  it("warns of a well-formed language tag the site cannot name, and keeps it", async () => {
    const { problems, warnings, works } = await check([["", "qaa es", "zxx-Latn", "", "", "", ""]]);
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      'content/audiovisuals.csv:2: warning: audio_languages: "qaa" is a language tag the site cannot name; shown as the tag',
    ]);
    expect(works![0]!.browse).toEqual({ audio: ["qaa", "es"], subtitles: ["zxx-Latn"] });
  });

  it("gives the same object from the fast check and from the schema", () => {
    const cells = {
      id: "10",
      name: "A",
      slug: "a",
      cover: "covers/a.png",
      country: "fr,es",
      audio_languages: "VA",
      accessibility: "captions audio-description",
      name_va: "Viatge",
    };
    const all = Object.fromEntries(
      Object.keys(FILES.audiovisuals.schema.in.shape).map((c) => [c, null]),
    );
    const row = { ...all, ...cells };
    const parsed = FILES.audiovisuals.schema.parse(row);
    expect(parsed.browse).toEqual({
      names: { va: "Viatge" },
      countries: ["FR", "ES"],
      audio: ["ca-valencia"],
      accessibility: ["audio-description", "captions"],
    });
    expect(FILES.audiovisuals.fast(row)).toStrictEqual(parsed);
  });
});
