import { fastAudiovisual, fastAvailability, fastDirector } from "./fast-rows.ts";
import { audiovisualRow, availabilityRow, directorRow, domainRow } from "./schema.ts";

/** The columns of each file, derived from the schemas so the two never disagree. */
export const FILES = {
  domains: { file: "domains.csv", schema: domainRow, required: ["domain", "name"] },
  directors: {
    file: "directors.csv",
    schema: directorRow,
    required: ["id", "name", "slug"],
    fast: fastDirector,
  },
  audiovisuals: {
    file: "audiovisuals.csv",
    schema: audiovisualRow,
    required: ["id", "name", "slug", "cover"],
    fast: fastAudiovisual,
  },
  availability: {
    file: "availability.csv",
    schema: availabilityRow,
    required: ["audiovisual_id", "domain", "available_from"],
    fast: fastAvailability,
  },
} as const;
