/**
 * The nonfiling characters of a title (245's second indicator): an initial article, the spaces
 * and punctuation around it, counted so that a catalogue files "El sur" under S. Only done when
 * the title's language is known and its articles are listed here; otherwise 0, which files the
 * title as written (a cataloguer can correct it; a wrong count would hide the first letters).
 *
 * Articles: the Library of Congress's list of initial definite and indefinite articles (MARC 21,
 * appendix E) for the catalogue's languages. Left out as ambiguous: Catalan `en` and `na`
 * (personal articles that are also a preposition and a word). Basque has none at the start.
 */
const ARTICLES: Readonly<Record<string, readonly string[]>> = {
  spa: ["el", "la", "lo", "los", "las", "un", "una", "unos", "unas"],
  eng: ["the", "a", "an"],
  fre: ["le", "la", "les", "l'", "un", "une"],
  cat: ["el", "els", "la", "les", "l'", "un", "una", "uns", "unes"],
  glg: ["o", "a", "os", "as", "un", "unha", "uns", "unhas"],
  baq: [],
};

/** Beginnings where the word is not an article: names, and Spanish `lo` as a pronoun. */
const NOT_ARTICLES = [
  "el dorado",
  "el salvador",
  "el niño",
  "la salle",
  "las vegas",
  "los angeles",
  "los ángeles",
  "los alamos",
  "los álamos",
  "lo que",
  "lo cual",
  "a to z",
];

/**
 * Opening punctuation, the article, then an apostrophe (elision: l') or white space, then any
 * opening punctuation before the first letter or digit that files.
 */
const START =
  /^([\p{Ps}\p{Pi}"'¿¡*]*)(\p{L}+)(?:(['’])|(\s+))([\p{Ps}\p{Pi}"'¿¡*]*)(?=[\p{L}\p{N}])/u;

/**
 * The nonfiling count of `title` in the languages it may be in (MARC language codes): the count
 * when every language gives the same one (a title in none of them gives 0). A count over 9, which
 * the indicator cannot hold, is 0.
 */
export function nonfilingCharacters(title: string, languages: readonly string[]): number {
  if (languages.length === 0) return 0;
  const count = inLanguage(title, languages[0]!);
  for (let i = 1; i < languages.length; i++)
    if (inLanguage(title, languages[i]!) !== count) return 0;
  return count <= 9 ? count : 0;
}

function inLanguage(title: string, language: string): number {
  const articles = ARTICLES[language];
  const match = articles === undefined ? null : START.exec(title);
  if (articles === undefined || match === null) return 0;
  const article = match[2]!.toLowerCase() + (match[3] === undefined ? "" : "'");
  if (!articles.includes(article)) return 0;
  const rest = title.slice(match[1]!.length).toLowerCase();
  if (NOT_ARTICLES.some((words) => rest.startsWith(words))) return 0;
  return [...match[0]].length;
}
