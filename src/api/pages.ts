import { createHash } from "node:crypto";
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

export type FileData = string | Uint8Array | readonly Uint8Array[];

/**
 * One file of the output: its path relative to the output folder and its bytes (maybe in parts).
 * A file with a `key` (a digest of everything its bytes are made from) produces its bytes only
 * when the previous build's file had another key: unchanged pages cost a digest, not a page.
 */
export type OutputFile = { path: string; data: FileData } | { path: string; key: string; produce: () => FileData };

const digest = (...parts: (string | Uint8Array)[]) => {
  const hash = createHash("md5");
  for (const part of parts) hash.update(part);
  return hash.digest();
};

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

  const elements = new Map<number, { bytes: Buffer; digest: Buffer }>();
  for (const listed of view.orders.name) {
    const element = elementObject(listed, directorOf(listed), imageUrl);
    const bytes = Buffer.from(JSON.stringify(element));
    elements.set(listed.work.id, { bytes, digest: digest(bytes) });
    yield { path: detailPath(host, listed.work.id), data: JSON.stringify(detailObject(listed, element)) };
  }

  const count = view.orders.name.length;
  const pages = pageCount(count);
  for (const ordering of ORDERING_DIRS) {
    const works = view.orders[ordering === "default" ? domain.default_ordering : ordering];
    for (let page = 1; page <= pages; page++) {
      const members = works.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((listed) => elements.get(listed.work.id)!);
      const membersDigest = digest(...members.map((m) => m.digest));
      let results: Buffer | undefined;
      const joined = () => (results ??= Buffer.concat(members.flatMap((m, i) => (i === 0 ? [m.bytes] : [COMMA, m.bytes]))));
      const tail = `,"trans_title":null,"count":${count},"total_pages":${pages},"results":[`;
      const tailBytes = Buffer.from(tail);
      for (const format of Object.keys(FORMAT_DIRS) as FormatDir[]) {
        const next = page < pages ? JSON.stringify(pageLink(domain, format, ordering, page + 1)) : "null";
        const previous = page > 1 ? JSON.stringify(pageLink(domain, format, ordering, page - 1)) : "null";
        const head = `{"links":{"next":${next},"previous":${previous}}`;
        const key = digest("page-v1", head, tail, membersDigest).toString("hex");
        const produce = () => [Buffer.from(head), tailBytes, joined(), CLOSE];
        yield { path: listPagePath(host, format, ordering, page), key, produce };
        // page=last answers the same bytes as the last page's number.
        if (page === pages) yield { path: listPagePath(host, format, ordering, "last"), key, produce };
      }
    }
  }

  for (const name of Object.keys(ERROR_BODIES) as ErrorName[]) {
    yield { path: errorPath(host, name), data: JSON.stringify(ERROR_BODIES[name]) };
  }
}
