import { random } from "../../scripts/generate.ts";
import type { MarcDomain, MarcWork } from "../../src/marc/map.ts";

/** Works of every row shape, with real titles, for the MARC tests. */

export const DOMAIN: MarcDomain = { buildDate: "2026-11-20", language: "es", orgCode: "SpMaBN" };

const WORDS =
  "la luz del cine mudo vuelve a la pantalla con una historia de amor y de viaje entre dos orillas del río".split(
    " ",
  );

/** `count` words of a Spanish-like text with accents (two bytes) in it. */
export function words(count: number, start = 0): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++)
    out.push(i % 7 === 3 ? "canción" : WORDS[(start + i) % WORDS.length]!);
  return out.join(" ");
}

/** A title of 300 characters, the longest the tests name. */
export const LONG_TITLE = `${"Memorias del subdesarrollo: ".repeat(11).slice(0, 299)}X`;

export const SHAPES = {
  full: {
    id: 101,
    title: "El viaje a la Luna",
    titles: { es: "El viaje a la Luna", fr: "Le Voyage dans la Lune", en: "A Trip to the Moon" },
    year: 1902,
    duration: 14,
    synopsis: "Un grupo de astrónomos viaja a la Luna en una cápsula disparada por un cañón.",
    directors: [{ name: "Georges Méliès", heading: "Méliès, Georges, 1861-1938" }],
    category: "Cortometrajes",
    ageRating: "TP",
    countries: ["FR"],
    audioLanguages: ["zxx"],
    subtitleLanguages: ["es", "en"],
    watchUrl: "https://biblioteca.example/ver/101/el-viaje-a-la-luna",
    availableFrom: "2026-01-05",
  },
  minimal: { id: 7, title: "Sin datos" },
  noDirector: {
    id: 102,
    title: "Nanuk, el esquimal",
    year: 1922,
    duration: 79,
    directors: [],
    category: "Documentales",
    countries: ["US"],
  },
  twoDirectors: {
    id: 103,
    title: "Los olvidados",
    year: 1950,
    duration: 85,
    directors: [
      { name: "Luis Buñuel", heading: "Buñuel, Luis (1900-1983)" },
      { name: "Luis Alcoriza" },
    ],
    audioLanguages: ["es-MX"],
    countries: ["MX"],
  },
  noYear: {
    id: 104,
    title: "¿Qué he hecho yo para merecer esto?",
    duration: 101,
    directors: [{ name: "Pedro Almodóvar", heading: "Almodóvar, Pedro, 1949-" }],
  },
  noSynopsis: {
    id: 105,
    title: "L'Atalante",
    titleLanguage: "fr",
    year: 1934,
    duration: 89,
    synopsis: null,
    countries: ["FR"],
    audioLanguages: ["fr"],
  },
  everyLanguage: {
    id: 106,
    title: "La lengua de las mariposas",
    titles: {
      es: "La lengua de las mariposas",
      en: "Butterfly's Tongue",
      ca: "La llengua de les papallones",
      gl: "A lingua das bolboretas",
      eu: "Tximeleten mihia",
      va: "La llengua de les papallones",
      fr: "La Langue des papillons",
    },
    year: 1999,
    duration: 96,
    synopsis: "Galicia, 1936. Moncho empieza la escuela con don Gregorio.",
    directors: [{ name: "José Luis Cuerda" }],
    category: "Películas",
    ageRating: "7",
    countries: ["ES"],
    audioLanguages: ["es", "gl", "eu", "ca", "ca-valencia", "en", "fr"],
    subtitleLanguages: ["es", "en", "ca", "gl", "eu", "va", "fr", "ssp"],
    watchUrl: "https://biblioteca.example/ver/106",
  },
  combining: {
    id: 107,
    // "Amélie" and "Pequeña" with combining marks (e + U+0301, n + U+0303), not precomposed.
    title: "Le Fabuleux Destin d'Ame\u0301lie Poulain",
    titleLanguage: "fr",
    titles: { es: "Pequen\u0303a Ame\u0301lie" },
    year: 2001,
    audioLanguages: ["fr"],
    countries: ["FR", "DE"],
  },
  astral: {
    id: 108,
    // Four-byte characters: mathematical letters, an emoji, a CJK Extension B ideograph.
    title: "𝕿𝖍𝖊 𝖒𝖆𝖙𝖗𝖎𝖝 🎬 𠜎𠜱",
    synopsis: "Una película con 🎞️ y 𠀋 en su sinopsis.",
    year: 1999,
    duration: 136,
    audioLanguages: ["en", "yue"],
    subtitleLanguages: ["zh-Hant"],
    countries: ["US", "AU"],
  },
  longTitle: { id: 109, title: LONG_TITLE, year: 2020, duration: 1500 },
  longSynopsis: {
    id: 110,
    title: "El sur",
    year: 1983,
    duration: 95,
    synopsis: words(4000),
    directors: [{ name: "Víctor Erice" }],
  },
  // Absurd on purpose: a title, a synopsis and forty director names each too long, together far over 99,999 bytes.
  overLimits: {
    id: 111,
    title: words(2000),
    synopsis: words(40_000),
    directors: Array.from({ length: 40 }, (_, i) => ({
      name: `Director ${i} ${"ñ".repeat(1500)}`,
    })),
    audioLanguages: ["es"],
  },
} satisfies Record<string, MarcWork>;

/** Real titles with the language they are in (the first audio language of their works). */
const TITLES: [string, string][] = [
  ["El espíritu de la colmena", "es"],
  ["The Others", "en"],
  ["La haine", "fr"],
  ["Ame\u0301lie", "fr"],
  ["8½", "it"],
  ["¡Bienvenido, Mister Marshall!", "es"],
  ["À bout de souffle", "fr"],
  ["Les 400 coups", "fr"],
  ["𝕸𝖆𝖙𝖗𝖎𝖝", "en"],
  ["Ikarus", "de"],
  ["«La Strada»", "it"],
  ["Un chien andalou", "fr"],
  ["An Autumn Afternoon", "ja"],
  ["O Apóstolo", "gl"],
  ["Loreak", "eu"],
  ["Els dies que vindran", "ca"],
  ["La La Land", "en"],
  ["Los Angeles Plays Itself", "en"],
  ["Los santos inocentes", "es"],
];
const DIRECTORS = [
  { name: "Víctor Erice", heading: "Erice, Víctor, 1940-" },
  { name: "Agnès Varda" },
  { name: "Bong Joon-ho" },
  { name: "Icíar Bollaín", heading: "Bollaín, Icíar, 1967-" },
  { name: "Jon Garaño" },
];
const LANGUAGES = [
  "es",
  "en",
  "ca",
  "gl",
  "eu",
  "va",
  "fr",
  "de",
  "it",
  "pt-BR",
  "ja",
  "zh-Hant",
  "ar",
  "ssp",
  "zxx",
  "x-private",
];
const COUNTRIES = ["ES", "FR", "US", "GB", "AR", "MX", "JP", "KR", "DE", "PS", "XX"];

/** `count` works mixing every shape's traits, seeded. */
export function generatedWorks(count: number, seed = 41): MarcWork[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const some = <T>(list: readonly T[], most: number): T[] =>
    Array.from({ length: Math.floor(next() * (most + 1)) }, () => pick(list));
  return Array.from({ length: count }, (_, i): MarcWork => {
    const [name, language] = pick(TITLES);
    const title = `${name}${next() < 0.5 ? ` ${i}` : ""}`;
    return {
      id: 1000 + i * 3,
      title,
      titles:
        next() < 0.4
          ? { es: title, en: `${title} (English)`, va: `${title} (valencià)` }
          : undefined,
      year: next() < 0.8 ? 1900 + Math.floor(next() * 126) : null,
      duration: next() < 0.8 ? 1 + Math.floor(next() * 240) : null,
      synopsis: next() < 0.7 ? words(10 + Math.floor(next() * 120), i) : null,
      directors: some(DIRECTORS, 3),
      category:
        next() < 0.8
          ? pick(["Películas", "Documentales", "Cortometrajes", "Artes escénicas"])
          : null,
      ageRating: next() < 0.5 ? pick(["TP", "7", "12", "16", "18"]) : null,
      countries: some(COUNTRIES, 2),
      audioLanguages: next() < 0.9 ? [language, ...some(LANGUAGES, 2)] : [],
      subtitleLanguages: some(LANGUAGES, 4),
      watchUrl: next() < 0.9 ? `https://biblioteca.example/ver/${1000 + i * 3}` : null,
      availableFrom: next() < 0.7 ? "2025-06-01" : null,
    };
  });
}
