import { z } from "zod";
import { isRealDate } from "../util/dates.ts";
import {
  AUDIOVISUAL_TYPES,
  LANGUAGES,
  boolean,
  imagePath,
  intBetween,
  isoDate,
  longText,
  oneLine,
  positiveInt,
  required,
  show,
  slug,
  type Language,
} from "./cells.ts";
import { browseColumns, gatherBrowse, type WorkBrowse } from "./browse-columns.ts";
import { LIMITS } from "./row-limits.ts";

export type { DomainBrand } from "./brand-columns.ts";
export type { WorkBrowse } from "./browse-columns.ts";
export {
  AUDIOVISUAL_TYPES,
  LANGUAGES,
  ORDERINGS,
  SLUG_PATTERN,
  isoDate,
  type AudiovisualType,
  type Language,
  type Ordering,
} from "./cells.ts";
export { WATCH_PLACEHOLDERS, domainRow, type Domain, type DomainLanguages } from "./domain-row.ts";

// Defined with the other date rules (the build date is checked with it before any schema loads).
export { isRealDate };

/**
 * The rows of the content folder (docs/interface.md#input). Every cell arrives as a trimmed string or
 * null (empty = absent); these schemas check and convert them (cells.ts; a domain's row in
 * domain-row.ts), and the TypeScript types of the catalogue are inferred from them.
 */

export const directorRow = z
  .object({
    id: positiveInt(),
    name: oneLine(),
    slug: slug(),
    photo: imagePath().nullable(),
    show_img: boolean()
      .nullable()
      .transform((value) => value ?? false),
    description: longText().nullable(),
    description_es: longText().nullable(),
    description_en: longText().nullable(),
    description_ca: longText().nullable(),
    description_gl: longText().nullable(),
    description_eu: longText().nullable(),
    description_va: longText().nullable(),
    description_fr: longText().nullable(),
    // The heading form a library's catalogue files the name under (`Méliès, Georges, 1861-1938`):
    // only the MARC records read it, and a director without one is the object it was before the column.
    heading: oneLine().nullable(),
  })
  .transform(({ heading, ...director }): typeof director & { heading?: string } =>
    heading === null ? director : { ...director, heading },
  );
export type Director = z.infer<typeof directorRow>;

/** A work's synopses: by language, and `untagged` for the `synopsis` column (its language unknown). */
export type Synopses = Partial<Record<Language | "untagged", string>>;

export const SYNOPSIS_COLUMNS = [
  "synopsis",
  ...LANGUAGES.map((lang) => `synopsis_${lang}` as const),
] as const;
export type SynopsisColumn = (typeof SYNOPSIS_COLUMNS)[number];
export const synopsisKey = (column: SynopsisColumn) =>
  column === "synopsis" ? "untagged" : (column.slice("synopsis_".length) as Language);
const synopsisColumns = Object.fromEntries(
  SYNOPSIS_COLUMNS.map((column) => [column, longText().nullable()]),
) as unknown as Record<SynopsisColumn, z.ZodNullable<ReturnType<typeof longText>>>;

export const audiovisualRow = z
  .object({
    id: positiveInt(),
    name: oneLine(),
    slug: slug(),
    audiovisual_type: z
      .enum(AUDIOVISUAL_TYPES, {
        error: (iss) =>
          `expected one of ${AUDIOVISUAL_TYPES.join(", ")} or empty, got ${show(iss.input)}`,
      })
      .nullable(),
    director_id: positiveInt().nullable(),
    year: intBetween(LIMITS.year).nullable(),
    duration: intBetween(LIMITS.duration).nullable(),
    cover: imagePath(),
    status_global: intBetween(LIMITS.status)
      .nullable()
      .transform((value) => value ?? 1),
    ...synopsisColumns,
    ...browseColumns,
  })
  .transform(
    ({
      synopsis,
      synopsis_es,
      synopsis_en,
      synopsis_ca,
      synopsis_gl,
      synopsis_eu,
      synopsis_va,
      synopsis_fr,
      country,
      audio_languages,
      subtitle_languages,
      age_rating,
      accessibility,
      name_es,
      name_en,
      name_ca,
      name_gl,
      name_eu,
      name_va,
      name_fr,
      ...work
    }) => {
      const withText = withSynopses(work, {
        synopsis,
        synopsis_es,
        synopsis_en,
        synopsis_ca,
        synopsis_gl,
        synopsis_eu,
        synopsis_va,
        synopsis_fr,
      });
      const browse = gatherBrowse({
        country,
        audio_languages,
        subtitle_languages,
        age_rating,
        accessibility,
        names: { name_es, name_en, name_ca, name_gl, name_eu, name_va, name_fr },
      });
      const row: typeof withText & { browse?: WorkBrowse } =
        browse === undefined ? withText : { ...withText, browse };
      return row;
    },
  );

/**
 * A work with its synopses gathered in `synopses`, absent when it has none: the site shows them,
 * the API does not (src/model/work-digests.ts keeps them out of the digests the API is keyed by).
 */
function withSynopses<T extends object>(
  work: T,
  cells: Partial<Record<SynopsisColumn, string | null>>,
): T & { synopses?: Synopses } {
  let synopses: Synopses | undefined;
  for (const column of SYNOPSIS_COLUMNS) {
    const text = cells[column];
    if (text != null) (synopses ??= {})[synopsisKey(column)] = text;
  }
  return synopses === undefined ? work : { ...work, synopses };
}
export type Audiovisual = z.infer<typeof audiovisualRow> & { browse?: WorkBrowse };

export const availabilityRow = z.object({
  audiovisual_id: positiveInt(),
  domain: required(),
  available_from: isoDate(),
  available_until: isoDate().nullable(),
});
export type Availability = z.infer<typeof availabilityRow>;
