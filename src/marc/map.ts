import { isMarcOrgCode } from "../util/marc-org-code.ts";
import { nonfilingCharacters } from "./articles.ts";
import { marcLanguage } from "./codes.ts";
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
import {
  DEFAULT_LABELS,
  fill,
  labelsLanguage,
  withoutForbiddenLabels,
  type MarcLabels,
} from "./record-labels.ts";
import {
  MAX_FIELD_BYTES,
  type ControlField,
  MappedRecord,
  type DataField,
  type Field,
  type MarcRecord,
  shared,
  type Subfield,
} from "./record.ts";
import type { MarcDomain, MarcStatus, MarcWork } from "./marc-work.ts";
import {
  codesOf,
  firstCountry,
  languageTags,
  otherTitles,
  remembered,
  titleLanguages,
  unique,
} from "./work-values.ts";

export type { MarcDirector, MarcDomain, MarcStatus, MarcWork } from "./marc-work.ts";

/**
 * One work as a MARC 21 bibliographic record for streaming video (RDA, ISBD punctuation), the
 * mapping docs/exports.md#marc-21-records tables. What the work lacks is left out, never guessed.
 */

/** A work's control number (001): the same in every build and domain, and in the record that deletes it. */
export const controlNumber = (id: number): string => `catav${id}`;

/** The fields of a record whose values are fixed (RDA content, media and carrier types). */
const RDA_TYPES = [
  data("336", "  ", "a", "two-dimensional moving image", "b", "tdi", "2", "rdacontent"),
  data("337", "  ", "a", "computer", "b", "c", "2", "rdamedia"),
  data("338", "  ", "a", "online resource", "b", "cr", "2", "rdacarrier"),
].map(shared);

/** How a field too long is ended where it is cut: 245 with a period too; a link is left out (null). */
const CUT_ENDINGS: Readonly<Record<string, string | null>> = { "245": "….", "856": null };

/** `make`, its fields made once for each key and marked as shared by many records. */
const sharedFields = <F extends Field>(make: (key: string) => F) =>
  remembered((key: string) => shared(make(key)));

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
  const given = withoutForbiddenLabels(domain.labels ?? {});
  const labels: MarcLabels = {
    ...defaults,
    ...given,
    languageNames: { ...defaults.languageNames, ...given.languageNames },
  };
  const locale = language === "va" ? "ca-ES-valencia" : language;
  // Made when a work first has a language to name: Intl's names of languages load a large part
  // of ICU's data, which a catalogue without language columns never needs.
  let names: Intl.DisplayNames | undefined;
  let lists: Intl.ListFormat | undefined;
  const genreSource = text(domain.genreSource) ?? "local";
  const head: ControlField[] = [
    ...(domain.orgCode ? [control("003", domain.orgCode)] : []),
    control("005", `${domain.buildDate.replaceAll("-", "")}000000.0`),
    ...PHYSICAL_DESCRIPTIONS.map((value) => control("007", value)),
  ].map(shared);

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
    names ??= new Intl.DisplayNames([locale], { type: "language", fallback: "none" });
    return labels.languageNames[language] ?? names.of(tag) ?? tag;
  });
  const languageList = remembered((named: string) =>
    (lists ??= new Intl.ListFormat(locale, { type: "conjunction" })).format(named.split("\n")),
  );
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
  // Fields whose values a catalogue repeats (a year, a running time, a rating, a genre) are made
  // once and shared by the records that hold them: nothing changes a record's fields, a record
  // made of fewer objects costs less to make and to collect, and the serialisers encode each such
  // field once and copy its bytes after (`shared`). A language note is made once but not marked:
  // a catalogue with language columns has thousands, each in a few records, whose bytes kept
  // would cost more than writing them again (a director's 700 likewise).
  const releaseField = sharedFields((year: string) =>
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
  const extentField = sharedFields((minutes: string) =>
    data(
      "300",
      "  ",
      "a",
      minutes === "" ? "1 online resource" : `1 online resource (${minutes} min.)`,
    ),
  );
  const ratingField = sharedFields((rating: string) => data("521", "8 ", "a", ageRating(rating)));
  const languagesField = remembered((note: string) => data("546", "  ", "a", note));
  const genreField = sharedFields((category: string) =>
    data("655", " 7", "a", ended(category, '.?!)]"-'), "2", genreSource),
  );
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
    if (year !== null) fields.push(releaseField(String(year)));
    fields.push(extentField(minutes === null ? "" : String(minutes)));
    for (const type of RDA_TYPES) fields.push(type);
    const synopsis = text(work.synopsis);
    if (synopsis !== null) fields.push(data("520", "  ", "a", ended(synopsis, ".?!…\"'»”)")));
    const rating = text(work.ageRating);
    if (rating !== null) fields.push(ratingField(rating));
    const languages = note(audio, subtitles);
    if (languages !== "") fields.push(languagesField(languages));
    const category = text(work.category);
    if (category !== null) fields.push(genreField(category));
    for (const heading of unique(
      (work.directors ?? []).map((director) => text(director.heading) ?? text(director.name)),
    ))
      fields.push(directorField(heading, labels.director));
    const url = text(work.watchUrl)?.replaceAll(" ", "%20");
    if (url) fields.push(data("856", "40", "u", url, "y", labels.watch));

    let shortened = false;
    // The same array while every field fits (most records): a copy from the first one cut.
    let withinField = fields;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      const fitted =
        field.tag === "520"
          ? cutSynopsis(field, MAX_FIELD_BYTES, labels.synopsisShortened, locale)
          : fitField(field, locale, CUT_ENDINGS[field.tag]);
      if (fitted !== field) {
        if (withinField === fields) withinField = fields.slice(0, i);
        shortened = true;
        if (fitted !== null) withinField.push(fitted);
      } else if (withinField !== fields) withinField.push(field);
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
    const recordFields: Field[] = [control("001", controlNumber(work.id))];
    return new MappedRecord(
      `00000${status === "deleted" ? "d" : "n"}gm a22000003i 4500`,
      recordFields.concat(head, [control("008", fixed)], fitted.fields),
    );
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
