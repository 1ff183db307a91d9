import { createHash, hash as digest } from "node:crypto";
import type { ProcessedImage } from "./media/images.ts";
import type { Director } from "./content/schema.ts";
import type { DomainView, ListedWork } from "./model/listing.ts";
import type { DomainInfo } from "./output/build-info.ts";

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
 * content-derived names of its cover and of its director's photo.
 */
export function domainInputsKey(base: string, view: DomainView, info: DomainInfo, images: ReadonlyMap<string, ProcessedImage>): string {
  const hash = createHash("md5").update(JSON.stringify([base, view.date, view.domain, info]));
  const add = (list: string, works: ListedWork[]) => {
    let text = `\0${list}:${works.length}`;
    for (const { work, director, window, isNew } of works) {
      const photo = director?.photo;
      const shown = [images.get(work.cover)?.file ?? null, photo ? (images.get(photo)?.file ?? null) : null];
      text += JSON.stringify([work, director === null ? null : directorDigest(director), window, isNew, shown]);
      // Hashed in chunks: an update per work costs more than the hashing.
      if (text.length > 65_536) {
        hash.update(text);
        text = "";
      }
    }
    hash.update(text);
  };
  // Every ordering is these works sorted by the program, and the ups are among them.
  add("listed", view.orders.name);
  add("ups", view.ups);
  add("downs", view.downs);
  return hash.digest("hex");
}

/** A director's digest, once per director for all domains (their biographies are most of the bytes). */
const directorDigests = new WeakMap<Director, string>();
function directorDigest(director: Director): string {
  let found = directorDigests.get(director);
  if (found === undefined) directorDigests.set(director, (found = digest("md5", JSON.stringify(director), "hex")));
  return found;
}
