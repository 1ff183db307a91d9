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
  const browse = work.browse;
  return {
    id: work.id,
    title: work.name,
    ...(browse?.names !== undefined ? { titles: browse.names } : {}),
    year: work.year,
    duration: work.duration,
    synopsis: synopsis(work, domain.locale)?.text ?? null,
    directors:
      director === null ? [] : [{ name: director.name, heading: director.heading ?? null }],
    category: work.audiovisual_type === null ? null : (categories[work.audiovisual_type] ?? null),
    ageRating: browse?.age ?? null,
    ...(browse?.countries !== undefined ? { countries: browse.countries } : {}),
    ...(browse?.audio !== undefined ? { audioLanguages: browse.audio } : {}),
    ...(browse?.subtitles !== undefined ? { subtitleLanguages: browse.subtitles } : {}),
    watchUrl: domain.watch_url === undefined ? null : watchUrl(domain.watch_url, work),
    availableFrom: window.from,
  };
}
