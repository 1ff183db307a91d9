/**
 * The browsing columns of audiovisuals.csv as a real catalogue would have them, drawn per work
 * from its id (so that the rest of the generated catalogue does not change with `--browse`):
 * countries weighted to Spain and the US with some co-productions, audio from the country,
 * subtitles on most works, five age ratings, the accessibility features at realistic rates, and
 * titles in other languages on some works.
 */
import { random } from "./generate.ts";

export const BROWSE_COLUMNS = [
  "country",
  "audio_languages",
  "subtitle_languages",
  "age_rating",
  "accessibility",
  "name_en",
  "name_ca",
  "name_fr",
  "name_eu",
  "name_gl",
  "name_va",
];

const COUNTRIES: [string, number][] = Object.entries({
  ES: 35, US: 20, FR: 8, GB: 5, IT: 4, DE: 4, AR: 3, MX: 3, JP: 2, SE: 1, DK: 1, PT: 1, BR: 1,
  CA: 1, IE: 1, BE: 1, NL: 1, PL: 1, CZ: 0.5, HU: 0.5, RU: 0.5, CN: 0.5, KR: 0.5, IN: 0.5,
  IR: 0.5, TR: 0.3, GR: 0.3, FI: 0.3, NO: 0.3, CL: 0.5, CO: 0.5, CU: 0.5, PE: 0.3, UY: 0.3,
  VE: 0.3, MA: 0.2, SN: 0.2, EG: 0.2, AU: 0.5, NZ: 0.2, CH: 0.5, AT: 0.5, IL: 0.3, PH: 0.1,
  TW: 0.2, HK: 0.2, RO: 0.3,
}); // prettier-ignore
const AUDIO_OF: Record<string, string> = {
  ES: "es", AR: "es", MX: "es", CL: "es", CO: "es", CU: "es", PE: "es", UY: "es", VE: "es",
  US: "en", GB: "en", CA: "en", IE: "en", AU: "en", NZ: "en", FR: "fr", BE: "fr", SN: "fr",
  CH: "de", AT: "de", DE: "de", IT: "it", JP: "ja", PT: "pt", BR: "pt", SE: "sv", DK: "da",
  NL: "nl", PL: "pl", CZ: "cs", HU: "hu", RU: "ru", CN: "zh", TW: "zh", HK: "zh", KR: "ko",
  IN: "hi", IR: "fa", TR: "tr", GR: "el", FI: "fi", NO: "no", MA: "ar", EG: "ar", IL: "he",
  PH: "tl", RO: "ro",
}; // prettier-ignore
const SUBTITLES: [string, number][] = Object.entries({
  es: 50, en: 25, ca: 20, eu: 8, gl: 8, fr: 10, "ca-valencia": 3, pt: 3, de: 2,
}); // prettier-ignore
const AGES: [string | null, number][] = [["TP", 30], ["7", 20], ["12", 25], ["16", 15], ["18", 5], [null, 5]]; // prettier-ignore
const TITLES: [string, number][] = [["en", 0.3], ["ca", 0.25], ["fr", 0.1], ["eu", 0.08], ["gl", 0.08], ["va", 0.03]]; // prettier-ignore
const OTHER_WORDS = ["night", "river", "city", "shadow", "train", "moon", "sea", "garden", "knight", "letter", "journey", "girl", "machine", "winter", "heart", "nit", "riu", "ciutat", "ombra", "lluna", "gau", "ibaia", "hiria", "nuit", "rivière", "ville", "noite", "cidade"]; // prettier-ignore

const weighted = <T>(rand: () => number, list: [T, number][]): T => {
  let r = rand() * list.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, w] of list) if ((r -= w) <= 0) return value;
  return list.at(-1)![0];
};

/** The cells of BROWSE_COLUMNS for work `id` (null: empty). */
export function browseCells(id: number): (string | null)[] {
  const rand = random(id * 7919 + 17);
  const countries = rand() < 0.03 ? [] : [weighted(rand, COUNTRIES)];
  if (countries.length > 0 && rand() < 0.15) {
    const other = weighted(rand, COUNTRIES);
    if (!countries.includes(other)) countries.push(other);
  }
  const audio = [...new Set(countries.map((c) => AUDIO_OF[c] ?? "en"))];
  if (audio.length === 0) audio.push("es");
  if (countries[0] === "ES" && rand() < 0.1) audio.push("ca");
  if (countries[0] === "ES" && rand() < 0.04) audio.push("eu");
  if (!audio.includes("es") && rand() < 0.3) audio.push("es");
  const subtitles: string[] = [];
  if (rand() < 0.6) for (const [tag, w] of SUBTITLES) if (rand() * 100 < w) subtitles.push(tag);
  const accessibility = (
    [
      ["audio-description", 0.25],
      ["captions", 0.4],
      ["sign-language", 0.04],
    ] as const
  )
    .filter(([, p]) => rand() < p)
    .map(([feature]) => feature);
  const age = weighted(rand, AGES);
  const names = TITLES.map(([, p]) => {
    if (rand() >= p) return null;
    const words = Array.from(
      { length: 2 + Math.floor(rand() * 3) },
      () => OTHER_WORDS[Math.floor(rand() * OTHER_WORDS.length)]!,
    ).join(" ");
    return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${id}`;
  });
  const list = (values: readonly string[]) => (values.length === 0 ? null : values.join(" "));
  return [list(countries), list(audio), list(subtitles), age, list(accessibility), ...names];
}
