import type { Director, Domain, Language } from "../content/schema.ts";
import { LANGUAGES } from "../content/schema.ts";
import type { ListedWork } from "../model/domain-view.ts";

/**
 * JSON of a text: JSON.stringify's bytes, without its call when nothing needs escaping (quotes,
 * backslashes, control characters; any surrogate goes through JSON.stringify, which escapes a lone
 * one). A domain's elements hold a hundred thousand short texts, and each JSON.stringify call
 * cost more than the text.
 */
export const jsonText = (text: string | null): string =>
  text === null ? "null" : NEEDS_ESCAPING.test(text) ? JSON.stringify(text) : `"${text}"`;
// eslint-disable-next-line no-control-regex -- JSON escapes the control characters
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The media address of a content image, for one domain. */
export type ImageUrl = (rel: string) => string;

/**
 * The default-language `description`: the CSV's own column, else the text in the domain's
 * language (the original service returns the active language there), else null.
 */
function defaultDescription(director: Director, locale: string): string | null {
  if (director.description !== null) return director.description;
  const language = locale.slice(0, 2).toLowerCase() as Language;
  return LANGUAGES.includes(language) ? director[`description_${language}`] : null;
}

/**
 * A director record's JSON, keys in the contract's order (what JSON.stringify(directorObject())
 * gives). The seven biographies and the slug, most of its bytes, are the same in every domain:
 * serialised once per director for all of them.
 */
export function directorJson(director: Director, domain: Domain, imageUrl: ImageUrl): string {
  let shared = sharedDirectorJson.get(director);
  if (shared === undefined) {
    const {
      description_es,
      description_en,
      description_ca,
      description_gl,
      description_eu,
      description_va,
      description_fr,
      slug,
    } = director;
    const json = JSON.stringify({
      description_es,
      description_en,
      description_ca,
      description_gl,
      description_eu,
      description_va,
      description_fr,
      slug,
    });
    sharedDirectorJson.set(director, (shared = json.slice(1, -1)));
  }
  const photo = director.photo === null ? "null" : jsonText(imageUrl(director.photo));
  return `{"id":${director.id},"name":${jsonText(director.name)},"description":${jsonText(defaultDescription(director, domain.locale))},${shared},"photo":${photo},"show_img":${director.show_img}}`;
}

const sharedDirectorJson = new WeakMap<Director, string>();

/** A director record, keys in the contract's order. */
export function directorObject(director: Director, domain: Domain, imageUrl: ImageUrl) {
  return {
    id: director.id,
    name: director.name,
    description: defaultDescription(director, domain.locale),
    description_es: director.description_es,
    description_en: director.description_en,
    description_ca: director.description_ca,
    description_gl: director.description_gl,
    description_eu: director.description_eu,
    description_va: director.description_va,
    description_fr: director.description_fr,
    slug: director.slug,
    photo: director.photo === null ? null : imageUrl(director.photo),
    show_img: director.show_img,
  };
}

/**
 * A listing element in JSON, keys in the contract's order (docs/interface.md#json), in three pieces:
 * what comes before the director, then the director's own JSON (shared by all their works and
 * serialised once), then the rest without the closing brace, so that the retrieve document can
 * append its own keys to the same pieces. Written out key by key (the values through jsonText
 * and JSON.stringify) rather than JSON.stringify of objects and sliced: the same bytes
 * (`test/api/serialize.unit.test.ts` compares them) for a third less of the main thread's time.
 */
export function elementPieces(
  listed: ListedWork,
  imageUrl: ImageUrl,
): { before: string; after: string } {
  const { work } = listed;
  return {
    before: `{"id":${JSON.stringify(work.id)},"name":${jsonText(work.name)},"cover":${jsonText(imageUrl(work.cover))},"director":`,
    after: `,"audiovisual_type":${jsonText(work.audiovisual_type)},"is_new":${listed.isNew},"progress_loan_user":null,"streaming":{},"slug":${jsonText(work.slug)},"status_global":${JSON.stringify(work.status_global)}`,
  };
}

/** The retrieve document's keys after the element's: year, duration and the availability window, and the closing brace. */
export function detailTail(listed: ListedWork): string {
  const { work, window } = listed;
  return `,"year":${JSON.stringify(work.year)},"duration":${JSON.stringify(work.duration)},"created":${jsonText(window.from)},"expire":${jsonText(window.until)}}`;
}
