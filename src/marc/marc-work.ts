import type { MarcLabels } from "./record-labels.ts";

/**
 * What the mapping (map.ts) is given: a work as a domain shows it, and what the domain adds to
 * every record. Plain values: src/marc imports nothing of the catalogue's model.
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
