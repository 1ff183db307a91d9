import type { Director } from "../content/schema.ts";
import { titleIn } from "./titles.ts";
import { biography, type Biography } from "./biography.ts";
import { languageTag } from "../web/i18n.ts";
import type { Variants } from "./image-variants.ts";
import type { DomainSite, SitePage } from "./model.ts";
import { categoryDir, decadeDir, decadesDir, directorDir, shelfDir, workDir } from "../web/urls.ts";

/**
 * What search engines and link previews read of a page, written from the page's data: its meta
 * description, its breadcrumb trail and the image that stands for it. The head (templates/head.ts)
 * and the structured data (structured-data.ts) are made of these, so the two never disagree.
 */

/** Longest description kept whole; longer ones are cut at a word (search engines show ~160 characters). */
const MAX_DESCRIPTION = 200;

export function pageDescription(page: SitePage): string {
  const { site } = page;
  const s = site.strings;
  const library = site.info.name;
  const pageOf = (p: number, total: number) => (total > 1 ? ` ${s.pageOf(p, total)}.` : "");
  switch (page.kind) {
    case "listing":
      return (
        s.describeListing(library, page.count, s.orderings[page.ordering]) +
        pageOf(page.page, page.pages)
      );
    case "category":
      return (
        s.describeCategory(s.categories[page.type], library, page.count) +
        pageOf(page.page, page.pages)
      );
    case "work": {
      const lead = synopsisLead(page);
      if (lead !== null) return lead;
      const { work, director } = page.listed;
      const title = titleIn(work, s.code);
      const parts = [work.year === null ? title : `${title} (${work.year})`];
      if (director !== null) parts.push(`${s.director}: ${director.name}`);
      if (work.audiovisual_type !== null)
        parts.push(`${s.category}: ${s.categories[work.audiovisual_type]}`);
      parts.push(library);
      return clip(`${parts.join(". ")}.`);
    }
    case "director": {
      const { name } = page.director;
      const sentence = biographySentence(page.director, site);
      if (sentence === null) return s.describeDirector(name, library, page.works.length);
      // A biography that does not open with the name would leave the result unnamed.
      return sentence.includes(name) ? sentence : clip(`${name}: ${sentence}`);
    }
    case "browse":
      return browseDescription(page) + pageOf(page.page, page.pages);
    case "not-found":
      return s.notFoundText;
    case "own":
      return page.description ?? clip(`${page.title}. ${library}.`);
  }
}

/**
 * The first sentence of a director's biography in the page's language (or the untagged
 * `description`), or null when the CSV has none in that language: a description in another
 * language than the page's would be read out wrong and mislabel the page in search results.
 */
export function biographySentence(director: Director, site: DomainSite): string | null {
  const bio = biography(director, site.strings.code);
  if (!readsAs(bio, site)) return null;
  return clip(firstSentence(bio.text, site.strings.lang));
}

/**
 * A work page's description from its synopsis: as many of its first sentences as fit, or its
 * first sentence cut at a word; null when it has no synopsis in the page's language (for the
 * reason biographySentence gives).
 */
export function synopsisLead(page: Extract<SitePage, { kind: "work" }>): string | null {
  const { synopsis } = page;
  if (!readsAs(synopsis, page.site)) return null;
  let lead = "";
  for (const sentence of sentences(synopsis.text, page.site.strings.lang)) {
    const longer = lead === "" ? sentence : `${lead} ${sentence}`;
    if (longer.length > MAX_DESCRIPTION) break;
    lead = longer;
  }
  return lead === "" ? clip(firstSentence(synopsis.text, page.site.strings.lang)) : lead;
}

/** Whether a text of the content is in the page's language (Catalan reads right on a Valencian page, as Valencian on a Catalan one), or untagged. */
function readsAs(text: Biography | null, site: DomainSite): text is Biography {
  return (
    text !== null &&
    (text.lang === null || languageTag(text.lang).split("-")[0] === site.strings.lang.split("-")[0])
  );
}

const segmenters = new Map<string, Intl.Segmenter>();

/**
 * The first sentence of a text by the Unicode sentence rules of its language, on one line.
 */
export function firstSentence(text: string, lang: string): string {
  for (const sentence of sentences(text, lang)) return sentence;
  return "";
}

/**
 * The sentences of a text's first paragraph (blank lines separate them, as on the pages: ICU
 * would end a sentence at any line break), each on one line. ICU's rules as Intl.Segmenter
 * applies them know no abbreviation, and end a sentence at "F. W. Murnau" or "Dr. Mabuse": a
 * segment ending in an initial or a common abbreviation of the catalogue's languages runs on into
 * the next.
 */
function* sentences(text: string, lang: string): Generator<string> {
  let segmenter = segmenters.get(lang);
  if (segmenter === undefined)
    segmenters.set(lang, (segmenter = new Intl.Segmenter(lang, { granularity: "sentence" })));
  const paragraph = text
    .trim()
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, " ");
  let sentence = "";
  for (const { segment } of segmenter.segment(paragraph)) {
    sentence += segment;
    const last = ABBREVIATED.exec(sentence)?.[1];
    if (last !== undefined && (/^\p{Lu}$/u.test(last) || ABBREVIATIONS.has(last.toLowerCase())))
      continue;
    yield sentence.trim();
    sentence = "";
  }
  if (sentence.trim() !== "") yield sentence.trim();
}

/** The word before a sentence's final full stop. */
const ABBREVIATED = /(?:^|[\s(«"'])(\p{L}{1,5})\.\s*$/u;
/** Titles and abbreviations that end in a full stop inside a sentence (es, ca, gl, eu, fr, en). */
const ABBREVIATIONS = new Set([
  "dr",
  "dra",
  "mr",
  "mrs",
  "ms",
  "sr",
  "sra",
  "srta",
  "st",
  "sta",
  "sto",
  "jr",
  "mme",
  "mlle",
  "mgr",
  "gral",
  "prof",
  "vol",
  "núm",
  "pág",
  "aprox",
  "ca",
  "vs",
]);

/** A text cut at the last word boundary before MAX_DESCRIPTION, with an ellipsis. */
function clip(text: string): string {
  if (text.length <= MAX_DESCRIPTION) return text;
  const cut = text.slice(0, MAX_DESCRIPTION - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_DESCRIPTION / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

/** One step of a breadcrumb trail: its name and its folder relative to the site root. */
export interface Crumb {
  name: string;
  dir: string;
}

/** The trail from the home page to a work, director or category page; empty for the others. */
export function pageTrail(page: SitePage): Crumb[] {
  const { site } = page;
  const s = site.strings;
  const home: Crumb = { name: site.info.name, dir: "" };
  switch (page.kind) {
    case "work": {
      const { work } = page.listed;
      const category =
        work.audiovisual_type === null
          ? []
          : [
              {
                name: s.categories[work.audiovisual_type],
                dir: categoryDir(work.audiovisual_type, 1),
              },
            ];
      return [home, ...category, { name: titleIn(work, s.code), dir: workDir(work.id, work.slug) }];
    }
    case "director":
      return [home, { name: page.director.name, dir: directorDir(page.director.slug) }];
    case "category": {
      const first = { name: s.categories[page.type], dir: categoryDir(page.type, 1) };
      return page.page === 1
        ? [home, first]
        : [home, first, { name: s.pageOf(page.page, page.pages), dir: page.dir! }];
    }
    case "browse": {
      const decades = { name: s.format("browse.decades"), dir: decadesDir() };
      const first =
        page.shelf === "decade"
          ? [decades, { name: shelfTitle(page), dir: decadeDir(page.decade!, 1) }]
          : page.shelf === "decades"
            ? [decades]
            : [{ name: shelfTitle(page), dir: shelfDir(page.shelf, 1) }];
      return page.page === 1
        ? [home, ...first]
        : [home, ...first, { name: s.pageOf(page.page, page.pages), dir: page.dir! }];
    }
    default:
      return [];
  }
}

type Browse = Extract<SitePage, { kind: "browse" }>;

/** The heading of a browse page: "Novedades", "Por décadas", "Años 1960". */
export function shelfTitle(page: Browse): string {
  const s = page.site.strings;
  switch (page.shelf) {
    case "decades":
      return s.format("browse.decades");
    case "decade":
      return s.format("browse.decade", { decade: String(page.decade) });
    case "new":
      return s.format("browse.new");
    case "leaving":
      return s.format("browse.leaving");
  }
}

function browseDescription(page: Browse): string {
  const s = page.site.strings;
  const library = page.site.info.name;
  const works = s.works(page.count);
  const days = s.format("days", { n: page.days ?? 0 });
  switch (page.shelf) {
    case "decades":
      return s.format("describe.decades", { library, works });
    case "decade":
      return s.describeCategory(shelfTitle(page), library, page.count);
    case "new":
      return s.format("describe.new", { library, works, days });
    case "leaving":
      return s.format("describe.leaving", { library, works, days });
  }
}

/** An image of the page with its absolute URL and size, as link previews want it. */
export interface PageImage {
  url: string;
  width: number;
  height: number;
  alt: string;
}

/**
 * The image that stands for a page: a work's cover; a director's photo only where `show_img`
 * allows showing it (else none: a film's cover does not stand for a person); a listing's or a
 * category's first cover.
 */
export function pageImage(page: SitePage): PageImage | null {
  const { site } = page;
  // The library's logo stands for the pages that have no image of their own.
  const own = contentImage(page);
  return (
    own ??
    (site.brand.logo === undefined
      ? null
      : largestJpeg(site, site.images.get(site.brand.logo), site.info.name))
  );
}

function contentImage(page: SitePage): PageImage | null {
  const { site } = page;
  const s = site.strings;
  const image = (rel: string, alt: string) => largestJpeg(site, site.images.get(rel), alt);
  switch (page.kind) {
    case "work":
      return image(page.listed.work.cover, s.cover(titleIn(page.listed.work, s.code)));
    case "director": {
      const { director } = page;
      return director.show_img && director.photo !== null
        ? image(director.photo, s.photo(director.name))
        : null;
    }
    case "listing":
    case "category":
    case "browse": {
      const first = page.works[0];
      return first === undefined
        ? null
        : image(first.work.cover, s.cover(titleIn(first.work, s.code)));
    }
    case "not-found":
    case "own":
      return null;
  }
}

function largestJpeg(
  site: DomainSite,
  variants: Variants | undefined,
  alt: string,
): PageImage | null {
  const jpeg = variants?.jpeg.at(-1);
  if (jpeg === undefined) return null;
  return {
    url: `${site.info.media_url}/${jpeg.file}`,
    width: jpeg.width,
    height: jpeg.height,
    alt,
  };
}
