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
 * A work's own digest, once per work for all domains (the domain's part, its window and covers, is
 * small). Without what it adds for browsing (browseDigest) and without its synopses, which only its work pages show: they are keyed by them there
 * (src/site/model.ts), so a new synopsis leaves the API, the spreadsheets and the other pages be.
 */
const workDigests = new WeakMap<Audiovisual, string>();
export function workDigest(work: Audiovisual): string {
  let found = workDigests.get(work);
  if (found === undefined) {
    const { synopses: _shownOnItsPages, browse: _shownBySiteAndRecords, ...rest } = work;
    const bare = work.synopses === undefined && work.browse === undefined;
    workDigests.set(work, (found = md5(JSON.stringify(bare ? work : rest))));
  }
  return found;
}

/**
 * A digest of a work's synopses ("" without any), for the inputs key of the domains that list it.
 * Once per work: every domain's key, each MARC set's and each work page's ask for it.
 */
const synopsesDigests = new WeakMap<Audiovisual, string>();
export function synopsesDigest(work: Audiovisual): string {
  if (work.synopses === undefined) return "";
  let found = synopsesDigests.get(work);
  if (found === undefined) synopsesDigests.set(work, (found = md5(JSON.stringify(work.synopses))));
  return found;
}

/**
 * A digest of what a work adds for browsing ("" without it): the site and the MARC records show it,
 * the API and the spreadsheets do not, so it is in the domain's key, not in the work's digest.
 * Once per work, as synopsesDigest.
 */
const browseDigests = new WeakMap<Audiovisual, string>();
export function browseDigest(work: Audiovisual): string {
  if (work.browse === undefined) return "";
  let found = browseDigests.get(work);
  if (found === undefined) browseDigests.set(work, (found = md5(JSON.stringify(work.browse))));
  return found;
}

/** A director's digest, once per director for all domains (their biographies are most of the bytes). */
const directorDigests = new WeakMap<Director, string>();
export function directorDigest(director: Director): string {
  let found = directorDigests.get(director);
  if (found === undefined) {
    // Without the heading form, which only the MARC records show (keyed by it there).
    const { heading: _filedUnder, ...rest } = director;
    const bare = director.heading === undefined ? director : rest;
    directorDigests.set(director, (found = md5(JSON.stringify(bare))));
  }
  return found;
}
