import type { Audiovisual, Director } from "../content/schema.ts";
import { md5 } from "../util/hash.ts";
import type { ListedWork } from "./listed-work.ts";

/**
 * The digests a work's files are keyed by. The build records each work's inputs digest (the work
 * as one domain shows it) before the stages run; the API, the spreadsheets and the HTML pages read
 * them here, below the build that made them.
 */

/**
 * A work's inputs digest as domainInputs (src/pipeline/domain-inputs.ts) recorded it in
 * `workDigests`. A function of the module, not a closure per domain: optimised code calls one
 * known function, and a new closure for each domain sent it back to be compiled again.
 */
export function inputsDigest(
  workDigests: ReadonlyMap<ListedWork, string>,
  listed: ListedWork,
): string {
  const digest = workDigests.get(listed);
  if (digest === undefined) throw new Error(`bug: no inputs digest for work ${listed.work.id}`);
  return digest;
}

/**
 * `digest` of an object, made once per object: the catalogue's works and directors are the same
 * objects for every domain, and each domain's key, each MARC set's and each page's ask again.
 */
function oncePer<T extends object>(digest: (value: T) => string): (value: T) => string {
  const made = new WeakMap<T, string>();
  return (value) => {
    let found = made.get(value);
    if (found === undefined) made.set(value, (found = digest(value)));
    return found;
  };
}

/**
 * A work's own digest, once per work for all domains (the domain's part, its window and covers, is
 * small). Without what it adds for browsing (browseDigest) and without its synopses, which only
 * its work pages show: they are keyed by them there (src/site/model.ts), so a new synopsis leaves
 * the API, the spreadsheets and the other pages be.
 */
export const workDigest = oncePer((work: Audiovisual) => {
  const { synopses: _shownOnItsPages, browse: _shownBySiteAndRecords, ...rest } = work;
  const bare = work.synopses === undefined && work.browse === undefined;
  return md5(JSON.stringify(bare ? work : rest));
});

const synopsesOf = oncePer((work: Audiovisual) => md5(JSON.stringify(work.synopses)));
/** A digest of a work's synopses ("" without any), for the inputs key of the domains that list it. */
export const synopsesDigest = (work: Audiovisual): string =>
  work.synopses === undefined ? "" : synopsesOf(work);

const browseOf = oncePer((work: Audiovisual) => md5(JSON.stringify(work.browse)));
/**
 * A digest of what a work adds for browsing ("" without it): the site and the MARC records show it,
 * the API and the spreadsheets do not, so it is in the domain's key, not in the work's digest.
 */
export const browseDigest = (work: Audiovisual): string =>
  work.browse === undefined ? "" : browseOf(work);

/** A director's digest, once per director for all domains (their biographies are most of the bytes). */
export const directorDigest = oncePer((director: Director) => {
  // Without the heading form, which only the MARC records show (keyed by it there).
  const { heading: _filedUnder, ...rest } = director;
  return md5(JSON.stringify(director.heading === undefined ? director : rest));
});
