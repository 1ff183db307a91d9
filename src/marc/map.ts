import { isMarcOrgCode } from "../util/marc-org-code.ts";
import { nonfilingCharacters } from "./articles.ts";
import { marcCountry, marcLanguage } from "./codes.ts";
import {
  control,
  data,
  directorField,
  ended,
  fixedLengthData,
  PHYSICAL_DESCRIPTIONS,
  text,
} from "./fields.ts";
import { cutSynopsis, fitField, fitRecord } from "./fit.ts";
import { DEFAULT_LABELS, fill, labelsLanguage, type MarcLabels } from "./record-labels.ts";
import {
  MAX_FIELD_BYTES,
  type ControlField,
  type DataField,
  type MarcRecord,
  type Subfield,
} from "./record.ts";

/**
 * One work as a MARC 21 bibliographic record for streaming video (RDA, ISBD punctuation), the
 * mapping docs/exports.md#marc-21-records tables. What the work lacks is left out, never guessed.
 */

/** A director of a work: the name as the catalogue writes it, and the heading form if any (`Méliès, Georges, 1861-1938`). */
export interface MarcDirector {
  name: string;
  heading?: string | null;
}

/** A work as a domain shows it. */
export interface MarcWork {
  id: number;
  /** The title (245). */
  title: string;
  /** The title in other languages, by language (`es` … `fr`, or any BCP 47 tag): 246 for those that differ. */
  titles?: Readonly<Record<string, string | null | undefined>>;
  /** The language of `title` (BCP 47) when known: its initial article is then not filed on. */
  titleLanguage?: string | null;
  year?: number | null;
  /** Minutes. */
  duration?: number | null;
  /** The synopsis in the domain's language. */
  synopsis?: string | null;
  directors?: readonly MarcDirector[];
  /** The category's label in the domain's language (655). */
  category?: string | null;
  /** As the domain's rating scheme writes it. */
  ageRating?: string | null;
  /** ISO 3166-1 alpha-2 codes: the first with a MARC code goes in 008. */
  countries?: readonly string[];
  /** BCP 47 tags. */
  audioLanguages?: readonly string[];
  subtitleLanguages?: readonly string[];
  /** Where to watch or borrow the work (856). */
  watchUrl?: string | null;
  /** YYYY-MM-DD: the first day the domain lists the work, the record's "date entered" (else the build date). */
  availableFrom?: string | null;
}

/** What a domain adds to every record. */
export interface MarcDomain {
  /** YYYY-MM-DD. */
  buildDate: string;
  /** The domain's locale (BCP 47): the language of the notes and labels. */
  language: string;
  /** The MARC organization code (003), if the library has one. */
  orgCode?: string | null;
  /** 655's $2: the source of the category terms (default `local`, a library's own terms). */
  genreSource?: string | null;
  /** Texts overriding the language's defaults. */
  labels?: Partial<MarcLabels>;
}

/** `n`: a new record (the full file, the ups); `d`: a deleted one (the downs). */
export type MarcStatus = "new" | "deleted";

/** A work's control number (001): the same in every build and domain, and in the record that deletes it. */
export const controlNumber = (id: number): string => `catav${id}`;

/** The fields of a record whose values are fixed (RDA content, media and carrier types). */
const RDA_TYPES = [
  data("336", "  ", "a", "two-dimensional moving image", "b", "tdi", "2", "rdacontent"),
  data("337", "  ", "a", "computer", "b", "c", "2", "rdamedia"),
  data("338", "  ", "a", "online resource", "b", "cr", "2", "rdacarrier"),
];

/** How a field too long is ended where it is cut: 245 with a period too; a link is left out (null). */
const CUT_ENDINGS: Readonly<Record<string, string | null>> = { "245": "….", "856": null };

/** The order of the catalogue's own languages among other titles; other tags follow in code order. */
const LANGUAGE_ORDER = ["es", "en", "ca", "gl", "eu", "va", "fr"];

/** Turns works into records for one domain (labels, formats and dates made once). */
export function marcMapper(
  domain: MarcDomain,
): (work: MarcWork, status?: MarcStatus) => MarcRecord {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(domain.buildDate))
    throw new Error(`MARC build date must be YYYY-MM-DD: ${JSON.stringify(domain.buildDate)}`);
  if (domain.orgCode && !isMarcOrgCode(domain.orgCode))
    throw new Error(`not a MARC organization code: ${JSON.stringify(domain.orgCode)}`);
  const language = labelsLanguage(domain.language);
  const defaults = DEFAULT_LABELS[language];
  const labels: MarcLabels = {
    ...defaults,
    ...domain.labels,
    languageNames: { ...defaults.languageNames, ...domain.labels?.languageNames },
  };
  const locale = language === "va" ? "ca-ES-valencia" : language;
  const names = new Intl.DisplayNames([locale], { type: "language", fallback: "none" });
  const lists = new Intl.ListFormat(locale, { type: "conjunction" });
  const genreSource = text(domain.genreSource) ?? "local";
  const head: ControlField[] = [
    ...(domain.orgCode ? [control("003", domain.orgCode)] : []),
    control("005", `${domain.buildDate.replaceAll("-", "")}000000.0`),
    ...PHYSICAL_DESCRIPTIONS.map((value) => control("007", value)),
  ];

  // Intl's names and lists are dear to make at each call; a catalogue has few languages and lists.
  const languageName = remembered((tag: string): string => {
    if (labelsLanguage(tag) === "va") return labels.languageNames.va ?? tag;
    let language: string | undefined;
    try {
      language = new Intl.Locale(tag).language;
    } catch {
      return tag;
    }
    // Intl names a private-use or undetermined tag "root" or not at all: the tag says more.
    if (language === undefined || language === "und") return tag;
    return labels.languageNames[language] ?? names.of(tag) ?? tag;
  });
  const languageList = remembered((named: string) => lists.format(named.split("\n")));
  const languageNote = (template: string, tags: readonly string[]): string[] => {
    const named = [
      ...new Set(
        tags.filter((tag) => !["zxx", "und"].includes(marcLanguage(tag) ?? "")).map(languageName),
      ),
    ];
    return named.length === 0
      ? []
      : [fill(template, { languages: languageList(named.join("\n")) })];
  };
  // A catalogue has few lists of languages, titles' languages and ratings: their texts are made
  // once (the audio's and the subtitles' apart: together they make many more combinations).
  const noteOf = (template: string) =>
    remembered((key: string) => languageNote(template, key.split(" ")).join(" "));
  const audioNote = noteOf(labels.audio);
  const subtitlesNote = noteOf(labels.subtitles);
  const note = (audio: readonly string[], subtitles: readonly string[]): string => {
    const heard = audio.length > 0 ? audioNote(audio.join(" ")) : "";
    const read = subtitles.length > 0 ? subtitlesNote(subtitles.join(" ")) : "";
    return heard === "" || read === "" ? heard + read : `${heard} ${read}`;
  };
  const titleIn = remembered((tag: string) =>
    fill(labels.titleIn, { language: languageName(tag) }),
  );
  const ageRating = remembered((rating: string) => fill(labels.ageRating, { rating }));
  // Control fields are ASCII: 12 bytes of directory, the value, a terminator; 001's number is added per work, 008 is 40.
  const controlBytes =
    head.reduce((bytes, field) => bytes + 13 + field.value.length, 0) + 13 + (13 + 40);

  return (work, status = "new") => {
    const title = text(work.title);
    if (title === null) throw new Error(`work ${work.id} has no title`);
    const audio = languageTags(work.audioLanguages);
    const subtitles = languageTags(work.subtitleLanguages);
    const audioCodes = codesOf(audio);
    const year = Number.isInteger(work.year) ? work.year! : null;
    const minutes =
      typeof work.duration === "number" && work.duration > 0 ? Math.round(work.duration) : null;
    const fields: DataField[] = [];

    const codes: Subfield[] = [];
    for (const value of audioCodes) codes.push({ code: "a", value });
    for (const value of codesOf(subtitles)) codes.push({ code: "j", value });
    if (codes.length > 0) fields.push({ tag: "041", ind1: " ", ind2: " ", subfields: codes });
    fields.push(
      data(
        "245",
        `0${nonfilingCharacters(title, titleLanguages(work, title, domain.language))}`,
        "a",
        ended(title, "."),
      ),
    );
    for (const [tag, other] of otherTitles(work, title))
      fields.push(data("246", "1 ", "i", titleIn(tag), "a", other));
    // The original release, as provider-neutral records of online reproductions describe it: the
    // catalogue knows its year (supplied, so in brackets), not its place or publisher.
    if (year !== null)
      fields.push(
        data(
          "264",
          " 1",
          "a",
          "[Place of publication not identified] :",
          "b",
          "[publisher not identified],",
          "c",
          `[${year}]`,
        ),
      );
    fields.push(
      data(
        "300",
        "  ",
        "a",
        minutes === null ? "1 online resource" : `1 online resource (${minutes} min.)`,
      ),
      ...RDA_TYPES,
    );
    const synopsis = text(work.synopsis);
    if (synopsis !== null) fields.push(data("520", "  ", "a", ended(synopsis, ".?!…\"'»”)")));
    const rating = text(work.ageRating);
    if (rating !== null) fields.push(data("521", "8 ", "a", ageRating(rating)));
    const languages = note(audio, subtitles);
    if (languages !== "") fields.push(data("546", "  ", "a", languages));
    const category = text(work.category);
    if (category !== null)
      fields.push(data("655", " 7", "a", ended(category, '.?!)]"-'), "2", genreSource));
    for (const heading of unique(
      (work.directors ?? []).map((director) => text(director.heading) ?? text(director.name)),
    ))
      fields.push(directorField(heading, labels.director));
    const url = text(work.watchUrl)?.replaceAll(" ", "%20");
    if (url) fields.push(data("856", "40", "u", url, "y", labels.watch));

    let shortened = false;
    const withinField: DataField[] = [];
    for (const field of fields) {
      const fitted =
        field.tag === "520"
          ? cutSynopsis(field, MAX_FIELD_BYTES, labels.synopsisShortened, locale)
          : fitField(field, locale, CUT_ENDINGS[field.tag]);
      if (fitted !== field) shortened = true;
      if (fitted !== null) withinField.push(fitted);
    }
    const fitted = fitRecord(
      withinField,
      controlBytes + controlNumber(work.id).length,
      labels.synopsisShortened,
      locale,
    );
    const entered =
      work.availableFrom && /^\d{4}-\d{2}-\d{2}$/.test(work.availableFrom)
        ? work.availableFrom
        : domain.buildDate;
    const country = firstCountry(work.countries);
    const fixed = fixedLengthData({
      entered,
      year,
      country,
      minutes,
      language: audioCodes[0] ?? null,
      shortened: shortened || fitted.shortened,
    });
    return {
      leader: `00000${status === "deleted" ? "d" : "n"}gm a22000003i 4500`,
      fields: [
        control("001", controlNumber(work.id)),
        ...head,
        control("008", fixed),
        ...fitted.fields,
      ],
    };
  };
}

/** One record: `marcMapper(domain)(work, status)`, for a single work. */
export const marcRecord = (
  work: MarcWork,
  domain: MarcDomain,
  status: MarcStatus = "new",
): MarcRecord => marcMapper(domain)(work, status);

/** Records made one at a time as they are read (a file of 20,000 never holds them all). */
export function* marcRecords(
  works: Iterable<MarcWork>,
  domain: MarcDomain,
  status: MarcStatus = "new",
): Generator<MarcRecord> {
  const toRecord = marcMapper(domain);
  for (const work of works) yield toRecord(work, status);
}

/** `make` with its answers kept (up to 65,536: a catalogue has far fewer languages, lists and ratings). */
function remembered(make: (key: string) => string): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= 65_536) known.clear();
      known.set(key, (value = make(key)));
    }
    return value;
  };
}

/** The distinct MARC codes of some tags, in their order; tags without one left out. */
const codesOf = (tags: readonly string[]): string[] => unique(tags.map(marcLanguage));

function firstCountry(countries: readonly string[] | undefined): string | null {
  for (const iso of countries ?? []) {
    const code = marcCountry(iso);
    if (code !== null) return code;
  }
  return null;
}

const languageTags = (tags: readonly string[] | undefined): string[] =>
  (tags ?? []).map(text).filter((tag): tag is string => tag !== null);

function unique<T>(values: readonly (T | null)[]): T[] {
  const found: T[] = [];
  for (const value of values) if (value !== null && !found.includes(value)) found.push(value);
  return found;
}

/**
 * The languages `title` may be in (MARC codes), for its initial article: the one given; else those
 * whose title it is; else the domain's and the first audio language's, counted only where both
 * agree (docs/exports.md#initial-articles-245s-second-indicator: a word that is an article in both is one whichever the title is in).
 */
function titleLanguages(work: MarcWork, title: string, domainLanguage: string): string[] {
  if (work.titleLanguage) return unique([marcLanguage(work.titleLanguage)]);
  const named: (string | null)[] = [];
  for (const tag in work.titles ?? {})
    if (text(work.titles![tag]) === title) named.push(marcLanguage(tag));
  const codes = unique(named);
  if (codes.length > 0) return codes;
  return unique([
    marcLanguage(domainLanguage),
    marcLanguage(languageTags(work.audioLanguages)[0] ?? ""),
  ]);
}

/** The titles in other languages that differ from `title` and from each other, as [language, title]. */
function otherTitles(work: MarcWork, title: string): [string, string][] {
  if (work.titles === undefined || work.titles === null) return [];
  const rank = (tag: string) =>
    LANGUAGE_ORDER.includes(tag) ? LANGUAGE_ORDER.indexOf(tag) : LANGUAGE_ORDER.length;
  const tags = Object.keys(work.titles ?? {}).sort(
    (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const seen = new Set([title]);
  const result: [string, string][] = [];
  for (const tag of tags) {
    const other = text(work.titles[tag]);
    if (other === null || seen.has(other)) continue;
    seen.add(other);
    result.push([tag, other]);
  }
  return result;
}
