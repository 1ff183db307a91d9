import type { Domain } from "../content/schema.ts";
import type { ListedWork } from "../model/domain-view.ts";
import type { MarcDomain, MarcWork } from "../marc/map.ts";
import { synopsis } from "../site/biography.ts";
import { watchUrl } from "../site/model.ts";

/**
 * The catalogue's model as the MARC layer's plain inputs (src/marc imports nothing): a listed
 * work as a domain shows it, and what the domain adds to every record. The texts are the ones the
 * domain's site and spreadsheets show: the synopsis the work's page shows in the domain's
 * language, the category's label in that language, the link the page's watch button opens.
 */

/** What a domain adds to every record of a build made on `date`. */
export const marcDomain = (domain: Domain, date: string): MarcDomain => ({
  buildDate: date,
  language: domain.locale,
  orgCode: domain.marc_org_code ?? null,
  genreSource: domain.marc_genre_source ?? null,
});

/** One listed work as a record's input; `categories` are the labels of the domain's language. */
export function marcWork(
  { work, director, window }: ListedWork,
  domain: Domain,
  categories: Readonly<Record<string, string>>,
): MarcWork {
  // What the work has, and nothing for what it lacks: every value is serialised to the writer
  // thread, and a spread of an object made for a value costs more than the value.
  const made: MarcWork = { id: work.id, title: work.name, availableFrom: window.from };
  if (work.year !== null) made.year = work.year;
  if (work.duration !== null) made.duration = work.duration;
  const text = synopsis(work, domain.locale)?.text;
  if (text !== undefined) made.synopsis = text;
  if (director !== null)
    made.directors = [
      director.heading === undefined
        ? { name: director.name }
        : { name: director.name, heading: director.heading },
    ];
  const category = work.audiovisual_type === null ? undefined : categories[work.audiovisual_type];
  if (category !== undefined) made.category = category;
  if (domain.watch_url !== undefined) made.watchUrl = watchUrl(domain.watch_url, work);
  const browse = work.browse;
  if (browse !== undefined) {
    if (browse.names !== undefined) made.titles = browse.names;
    if (browse.age !== undefined) made.ageRating = browse.age;
    if (browse.countries !== undefined) made.countries = browse.countries;
    if (browse.audio !== undefined) made.audioLanguages = browse.audio;
    if (browse.subtitles !== undefined) made.subtitleLanguages = browse.subtitles;
  }
  return made;
}
