import type { DomainView, ListedWork } from "../model/listing.ts";
import { pageLink } from "./links.ts";
import {
  detailPath,
  ERROR_BODIES,
  errorPath,
  FORMAT_DIRS,
  type FormatDir,
  listPagePath,
  ORDERING_DIRS,
  PAGE_SIZE,
  type ErrorName,
} from "./layout.ts";
import { detailObject, directorObject, elementObject, type ImageUrl } from "./serialize.ts";

/** One file of the output: its path relative to the output folder and its bytes (maybe in parts). */
export interface OutputFile {
  path: string;
  data: string | Uint8Array | readonly Uint8Array[];
}

const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");

export const pageCount = (count: number) => Math.max(1, Math.ceil(count / PAGE_SIZE));

/**
 * Every API response of one domain. Each element is serialised and UTF-8 encoded once; a page's
 * results are joined once and shared by the three formats, which differ only in their links, and
 * a page is handed over as parts (links, tail, results) so its bytes are never copied again.
 */
export function* apiFiles(view: DomainView, imageUrl: ImageUrl): Generator<OutputFile> {
  const { domain } = view;
  const host = domain.domain;
  const directors = new Map<number, object>();
  const directorOf = (listed: ListedWork) => {
    const director = listed.director;
    if (director === null) return null;
    let object = directors.get(director.id);
    if (object === undefined) directors.set(director.id, (object = directorObject(director, domain, imageUrl)));
    return object;
  };

  const elements = new Map<number, Buffer>();
  for (const listed of view.orders.name) {
    const element = elementObject(listed, directorOf(listed), imageUrl);
    elements.set(listed.work.id, Buffer.from(JSON.stringify(element)));
    yield { path: detailPath(host, listed.work.id), data: JSON.stringify(detailObject(listed, element)) };
  }

  const count = view.orders.name.length;
  const pages = pageCount(count);
  for (const ordering of ORDERING_DIRS) {
    const works = view.orders[ordering === "default" ? domain.default_ordering : ordering];
    for (let page = 1; page <= pages; page++) {
      const parts: Buffer[] = [];
      for (const listed of works.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)) {
        if (parts.length > 0) parts.push(COMMA);
        parts.push(elements.get(listed.work.id)!);
      }
      const results = Buffer.concat(parts);
      const tail = Buffer.from(`,"trans_title":null,"count":${count},"total_pages":${pages},"results":[`);
      for (const format of Object.keys(FORMAT_DIRS) as FormatDir[]) {
        const next = page < pages ? JSON.stringify(pageLink(domain, format, ordering, page + 1)) : "null";
        const previous = page > 1 ? JSON.stringify(pageLink(domain, format, ordering, page - 1)) : "null";
        const body = [Buffer.from(`{"links":{"next":${next},"previous":${previous}}`), tail, results, CLOSE];
        yield { path: listPagePath(host, format, ordering, page), data: body };
        // page=last answers the same bytes as the last page's number.
        if (page === pages) yield { path: listPagePath(host, format, ordering, "last"), data: body };
      }
    }
  }

  for (const name of Object.keys(ERROR_BODIES) as ErrorName[]) {
    yield { path: errorPath(host, name), data: JSON.stringify(ERROR_BODIES[name]) };
  }
}
