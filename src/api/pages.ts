import { SharedBytes, type FileData } from "../output/staging.ts";
import { md5 } from "../output/tree.ts";
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
import { detailTail, directorObject, elementPieces, type ImageUrl } from "./serialize.ts";


/**
 * One file of the output: its path relative to the output folder and its bytes (maybe in parts).
 * A file with a `key` (a digest of everything its bytes are made from) produces its bytes only
 * when the previous build's file had another key: unchanged pages cost a digest, not a page.
 */
export type OutputFile = { path: string; data: FileData } | { path: string; key: string; produce(): FileData };

export const pageCount = (count: number) => Math.max(1, Math.ceil(count / PAGE_SIZE));

/**
 * One listing element, without its closing brace (a retrieve document adds keys there): its
 * pieces, encoded into one buffer the first time a file that holds it is produced. A rebuild
 * produces only the files whose key changed, so most elements are never encoded.
 */
class Element {
  private encoded: Buffer | undefined;
  constructor(
    /** Hex MD5 of the element's pieces and its director's digest: what page keys are made of. */
    readonly digest: string,
    private readonly before: string,
    private readonly director: Uint8Array,
    private readonly after: string,
    private readonly arena: ByteArena,
  ) {}

  get bytes(): Buffer {
    this.encoded ??= elementBytes(this.before, this.director, this.after, this.arena);
    return this.encoded;
  }
}

/**
 * The bytes of a domain's elements and directors, carved out of large blocks. Each one alone
 * (Buffer.allocUnsafe, Buffer.from) took its turn in Node's 8 KB pool, and elements of a few
 * kilobytes used one up every other element: tens of thousands of small ArrayBuffers per domain,
 * a twentieth of the main thread's time with the garbage collection they caused. The blocks live
 * as long as the domain's elements do.
 */
class ByteArena {
  private block = Buffer.allocUnsafeSlow(0);
  private used = 0;

  alloc(size: number): Buffer {
    if (this.used + size > this.block.length) {
      this.block = Buffer.allocUnsafeSlow(Math.max(ARENA_BLOCK, size));
      this.used = 0;
    }
    const bytes = this.block.subarray(this.used, this.used + size);
    this.used += size;
    return bytes;
  }

  from(text: string): Buffer {
    const bytes = this.alloc(Buffer.byteLength(text));
    bytes.write(text, 0);
    return bytes;
  }
}

const ARENA_BLOCK = 64 << 10;

const CLOSE = Buffer.from("}");
const CLOSE_COMMA = Buffer.from("},");
const NULL = Buffer.from("null");

/**
 * Every API response of one domain. A director's JSON (biographies in seven languages: most of
 * an element's bytes) is serialised and encoded once per domain; each element is encoded once,
 * into one buffer; a page is handed over as parts (its head, then its elements) that the writer
 * copies once into its batch, so no page is ever joined in memory. Pages and retrieve documents are keyed by
 * digests of what they are made of: an unchanged file costs one small digest.
 */
export function* apiFiles(view: DomainView, imageUrl: ImageUrl): Generator<OutputFile> {
  const { domain } = view;
  const host = domain.domain;
  const arena = new ByteArena();
  const directors = new Map<number, { bytes: Uint8Array; digest: string }>();
  const directorOf = (listed: ListedWork) => {
    const director = listed.director;
    if (director === null) return { bytes: NULL, digest: "null" };
    let json = directors.get(director.id);
    if (json === undefined) {
      const bytes = arena.from(JSON.stringify(directorObject(director, domain, imageUrl)));
      directors.set(director.id, (json = { bytes, digest: md5(bytes) }));
    }
    return json;
  };

  const elements = new Map<number, Element>();
  for (const listed of view.orders.name) {
    const { before, after } = elementPieces(listed, imageUrl);
    const director = directorOf(listed);
    const element = new Element(md5(`${before}${director.digest}${after}`), before, director.bytes, after, arena);
    elements.set(listed.work.id, element);
    const tail = detailTail(listed);
    yield new DetailFile(detailPath(host, listed.work.id), md5(`detail-v1${element.digest}${tail}`), element, tail);
  }

  const count = view.orders.name.length;
  const pages = pageCount(count);
  const tail = `,"trans_title":null,"count":${count},"total_pages":${pages},"results":[`;
  for (const ordering of ORDERING_DIRS) {
    const works = view.orders[ordering === "default" ? domain.default_ordering : ordering];
    for (let page = 1; page <= pages; page++) {
      const members = works.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((listed) => elements.get(listed.work.id)!);
      const membersDigest = members.map((m) => m.digest).join("");
      const results = new PageResults(members);
      for (const format of Object.keys(FORMAT_DIRS) as FormatDir[]) {
        const next = page < pages ? JSON.stringify(pageLink(domain, format, ordering, page + 1)) : "null";
        const previous = page > 1 ? JSON.stringify(pageLink(domain, format, ordering, page - 1)) : "null";
        const head = `{"links":{"next":${next},"previous":${previous}}${tail}`;
        const key = md5(`page-v3${head}${membersDigest}`);
        yield new ListFile(listPagePath(host, format, ordering, page), key, head, results);
        // page=last answers the same bytes as the last page's number.
        if (page === pages) yield new ListFile(listPagePath(host, format, ordering, "last"), key, head, results);
      }
    }
  }

  for (const name of Object.keys(ERROR_BODIES) as ErrorName[]) {
    yield { path: errorPath(host, name), data: JSON.stringify(ERROR_BODIES[name]) };
  }
}

/** The element's three pieces in one buffer (one part per element in every page that lists it). */
function elementBytes(before: string, director: Uint8Array, after: string, arena: ByteArena): Buffer {
  const start = Buffer.byteLength(before);
  const end = start + director.length;
  const bytes = arena.alloc(end + Buffer.byteLength(after));
  bytes.write(before, 0);
  bytes.set(director, start);
  bytes.write(after, end);
  return bytes;
}

/*
 * Keyed files are objects of these classes rather than closures: a build yields 70,000 of them,
 * and a closure each (named by the TypeScript loader with a property definition) cost a tenth
 * of a second.
 */

/** A retrieve document: the element's pieces and the detail keys. */
class DetailFile {
  constructor(
    readonly path: string,
    readonly key: string,
    private readonly element: Element,
    private readonly tail: string,
  ) {}

  produce(): FileData {
    return [this.element.bytes, this.tail];
  }
}

/** A listing page's results: the same bytes in its three formats, gathered once, when a first one is produced. */
class PageResults {
  private shared: SharedBytes | undefined;
  constructor(private readonly members: readonly Element[]) {}

  get bytes(): SharedBytes {
    if (this.shared === undefined) {
      const parts: Uint8Array[] = [];
      for (const member of this.members) parts.push(member.bytes, CLOSE_COMMA);
      if (parts.length > 0) parts[parts.length - 1] = CLOSE; // the last element closes without a comma
      this.shared = new SharedBytes(parts);
    }
    return this.shared;
  }
}

/** A listing page: its links and counts (`head`), then the results. */
class ListFile {
  constructor(
    readonly path: string,
    readonly key: string,
    private readonly head: string,
    private readonly results: PageResults,
  ) {}

  produce(): FileData {
    return [this.head, this.results.bytes, "]}"];
  }
}
