import { createHash } from "node:crypto";
import type { ProcessedImage } from "../media/processed-images.ts";
import { browseDigest, directorDigest, synopsesDigest, workDigest } from "../model/work-digests.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import type { DomainInfo } from "../output/build-info.ts";
import { md5 } from "../util/hash.ts";

/**
 * A domain's inputs key: a digest of everything the files in its folder are made of. When the
 * previous build recorded the same key for the domain, its API, exports and HTML pages are kept
 * whole without computing any of them, so a change to one domain's works costs the others
 * nothing (a rename only costs the domains that list the work). The files' own keys (API pages,
 * spreadsheets, HTML pages, search index parts) still decide, file by file, in a domain that
 * changed.
 *
 * The key is generous, as the file keys are: the program (its sources and locked dependencies)
 * and the build options (`base`), the domain's row and build description, and every work the
 * domain lists or lists as withdrawn, whole, with its director, its availability and the
 * content-derived names of its cover and of its director's photo, and the synopses of the works it lists.
 *
 * Returned with the key: each work's digest (the work as this domain shows it: with its
 * director, window, novelty, images, and the domain's media address and language), by listed
 * work (a ListedWork belongs to one domain's view): the API's retrieve documents and listing
 * pages (src/api/pages.ts) and the HTML pages (src/site/keys.ts) are keyed by them, so keying a
 * file serialises nothing.
 */
export function domainInputs(
  base: string,
  view: DomainView,
  info: DomainInfo,
  images: ReadonlyMap<string, ProcessedImage>,
): DomainInputs {
  const works = new Map<ListedWork, string>();
  // One digest fed as it goes, in chunks of about 32 KB: a string of every work's digest, joined,
  // was copied to be hashed, and an update per work cost more than its hashing.
  const key = createHash("md5").update(JSON.stringify([base, view.date, view.domain, info]));
  let pending = "";
  // What of the domain shapes every document about a work (the API's image addresses and default
  // description): in each work's digest, which the API's and the HTML pages' keys are made of.
  const shownBy = `${view.domain.media_url}\t${view.domain.locale}`;
  // Every ordering is these works sorted by the program, and the ups are among them.
  for (const [list, listed] of [
    ["listed", view.orders.name],
    ["ups", view.ups],
    ["downs", view.downs],
  ] as const) {
    pending += `\0${list}:${listed.length}`;
    for (const entry of listed) {
      let found = works.get(entry);
      if (found === undefined) {
        const { work, director, window, isNew } = entry;
        const photo = director?.photo;
        const cover = images.get(work.cover)?.file ?? "";
        const shown = photo ? (images.get(photo)?.file ?? "") : "";
        // Fields joined by tabs (none holds one, and none can be empty but those given as ""):
        // JSON.stringify of an array per work cost noticeably more per domain.
        const directorPart = director === null ? "" : directorDigest(director);
        works.set(
          entry,
          (found = md5(
            `${workDigest(work)}\t${directorPart}\t${window.from}\t${window.until ?? ""}\t${isNew}\t${cover}\t${shown}\t${shownBy}`,
          )),
        );
      }
      // The synopses, what a work adds for browsing and its director's heading form are in the
      // domain's key, not in the work's digest: only its pages and its MARC records show them.
      // Each is "" when absent, which leaves the key as it was before those columns.
      pending +=
        (list === "listed" ? found + synopsesDigest(entry.work) : found) +
        browseDigest(entry.work) +
        (entry.director?.heading ?? "");
      if (pending.length >= 32_768) {
        key.update(pending);
        pending = "";
      }
    }
  }
  return { key: key.update(pending).digest("hex"), workDigests: works };
}

export interface DomainInputs {
  /** The domain's inputs key. */
  key: string;
  /** Each listed work's inputs digest. */
  workDigests: Map<ListedWork, string>;
}
