import { SharedBytes, type FileData } from "../output/sink.ts";
import { md5 } from "../util/hash.ts";
import { inputsDigest } from "../model/work-digests.ts";
import type { Domain } from "../content/schema.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import { PageLinks } from "./links.ts";
import {
  detailPath,
  ERROR_BODIES,
  errorPath,
  FORMAT_DIRS,
  type FormatDir,
  listPagePath,
  ORDERING_DIRS,
  pageCount,
  PAGE_SIZE,
  type ErrorName,
} from "./layout.ts";
import { detailTail, directorJson, elementPieces, type ImageUrl } from "./serialize.ts";
import { codeVersion, type CodeConcern } from "../util/code-version.ts";

/**
 * One file of the output: its path relative to the output folder and its bytes (maybe in parts).
 * A file with a `key` (a digest of everything its bytes are made from) produces its bytes only
 * when the previous build's file had another key: unchanged pages cost a digest, not a page.
 */
export type OutputFile =
  { path: string; data: FileData } | { path: string; key: string; produce(): FileData };

/** Also here for the modules that import it from here (src/pipeline/domain-files.ts): it is the layout's, so that the site counts pages without loading the API's serializers. */
export { pageCount } from "./layout.ts";

/**
 * What makes the bytes of the retrieve documents and listing pages: this module and what it loads
 * (the serializers, the links, the layout). Their keys hold its version (src/util/code-version.ts),
 * so an edit of the code that writes them writes them again, and an edit elsewhere does not.
 */
export const API_CODE: CodeConcern = { entries: ["src/api/pages.ts"] };

/**
 * The code's part of a retrieve document's key, before the work's inputs digest: 12 hex digits of
 * API_CODE's version (48 bits; a key is only compared with the previous build's key of the same
 * path), short because every key is a line of the output's manifest, tens of thousands of them.
 */
const detailPrefix = (version: string) => `${version.slice(0, 12)}:`;

/**
 * The bytes of a domain's elements and directors, carved out of large blocks. Each one alone
 * (Buffer.allocUnsafe, Buffer.from) took its turn in Node's 8 KB pool, and elements of a few
 * kilobytes used one up every other element: tens of thousands of small ArrayBuffers per domain,
 * and the garbage collection they caused. The blocks live
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

const NULL = Buffer.from("null");

/**
 * Every API response of one domain, in three runs (retrieve documents, listing pages, error
 * bodies). Files are keyed by the works' inputs digests (`workDigests`,
 * from src/pipeline/domain-inputs.ts: the work, its director, window, novelty and images as this domain
 * shows them), so keying a file serialises nothing: a rebuild makes the elements of the few
 * files whose key changed, and no others. A director's JSON (biographies in seven languages:
 * most of an element's bytes) is serialised and encoded once per domain; each element is encoded
 * once, into one buffer; a page is handed over as parts (its head, then its elements) that the
 * writer copies once into its batch, so no page is ever joined in memory.
 */
export function apiFiles(
  view: DomainView,
  imageUrl: ImageUrl,
  workDigests: ReadonlyMap<ListedWork, string>,
  version: string = codeVersion(API_CODE),
): Iterable<OutputFile>[] {
  const elements = new DomainElements(view.domain, imageUrl);
  // Three generators rather than one: V8 optimised one generator of three loops while it ran the
  // first (on-stack replacement) and compiled it again for each of the others, background
  // compilation paid again at every build.
  return [
    detailFiles(view, elements, workDigests, detailPrefix(version)),
    listingFiles(view, elements, workDigests, version),
    errorFiles(view.domain.domain),
  ];
}

/**
 * A domain's listing elements, each followed by `},` as it stands in a page's results (a retrieve
 * document takes it without them and adds its keys), encoded into one buffer the first time a
 * file that holds it is produced: a rebuild produces only the files whose key changed, so most
 * elements are never made. A director's JSON
 * (biographies in seven languages: most of an element's bytes) is serialised once per domain.
 */
class DomainElements {
  private readonly arena = new ByteArena();
  private readonly directors = new Map<number, Uint8Array>();
  private readonly encoded = new Map<ListedWork, Buffer>();
  constructor(
    private readonly domain: Domain,
    private readonly imageUrl: ImageUrl,
  ) {}

  bytes(listed: ListedWork): Buffer {
    let bytes = this.encoded.get(listed);
    if (bytes === undefined) {
      const { before, after } = elementPieces(listed, this.imageUrl);
      this.encoded.set(
        listed,
        (bytes = elementBytes(before, this.director(listed), after, this.arena)),
      );
    }
    return bytes;
  }

  private director(listed: ListedWork): Uint8Array {
    const director = listed.director;
    if (director === null) return NULL;
    let bytes = this.directors.get(director.id);
    if (bytes === undefined)
      this.directors.set(
        director.id,
        (bytes = this.arena.from(directorJson(director, this.domain, this.imageUrl))),
      );
    return bytes;
  }
}

/** The retrieve documents, in name order. */
function* detailFiles(
  view: DomainView,
  elements: DomainElements,
  workDigests: ReadonlyMap<ListedWork, string>,
  prefix: string,
): Generator<OutputFile> {
  const host = view.domain.domain;
  for (const listed of view.orders.name) {
    yield new DetailFile(
      detailPath(host, listed.work.id),
      `${prefix}${inputsDigest(workDigests, listed)}`,
      listed,
      elements,
    );
  }
}

/** Every listing page of every ordering, in its three formats, and each ordering's `last`. */
function* listingFiles(
  view: DomainView,
  elements: DomainElements,
  workDigests: ReadonlyMap<ListedWork, string>,
  version: string,
): Generator<OutputFile> {
  const { domain } = view;
  const host = domain.domain;
  const count = view.orders.name.length;
  const pages = pageCount(count);
  const tail = `,"trans_title":null,"count":${count},"total_pages":${pages},"results":[`;
  const formats = Object.keys(FORMAT_DIRS) as FormatDir[];
  // Each ordering's works and links looked up before the loop: V8 compiled the loop again when a
  // lookup by another ordering's name, a closure per link or the `last` copy's own call site
  // (reached only at an ordering's last page) met its optimised code.
  const orderings = ORDERING_DIRS.map((ordering) => ({
    ordering,
    works: view.orders[ordering === "default" ? domain.default_ordering : ordering],
    links: formats.map((format) => new PageLinks(domain, format, ordering)),
  }));
  // An indexed loop: the iterator's call, made once per ordering, had too little feedback when the
  // loop was optimised, and sent it back to be compiled again.
  for (let o = 0; o < orderings.length; o++) {
    const { ordering, works, links } = orderings[o]!;
    for (let page = 1; page <= pages; page++) {
      const members = works.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
      let membersDigest = "";
      for (const member of members) membersDigest += inputsDigest(workDigests, member);
      const results = new PageResults(members, elements);
      // One key for the page in its three formats (and its `last` copy): a key is only compared
      // with the previous key of the same path, which names the format, the ordering and the
      // page; the links' other part is the domain's address, and the counts are in `tail`.
      const key = md5(`${version}${domain.base_url}${tail}${membersDigest}`);
      // page=last answers the same bytes as the last page's number.
      const copies = page === pages ? 2 : 1;
      for (let f = 0; f < formats.length; f++) {
        const format = formats[f]!;
        const next = page < pages ? links[f]!.json(page + 1) : "null";
        const previous = page > 1 ? links[f]!.json(page - 1) : "null";
        const head = `{"links":{"next":${next},"previous":${previous}}${tail}`;
        for (let copy = 0; copy < copies; copy++)
          yield new ListFile(
            listPagePath(host, format, ordering, copy === 0 ? page : "last"),
            key,
            head,
            results,
          );
      }
    }
  }
}

function* errorFiles(host: string): Generator<OutputFile> {
  for (const name of Object.keys(ERROR_BODIES) as ErrorName[]) {
    yield { path: errorPath(host, name), data: JSON.stringify(ERROR_BODIES[name]) };
  }
}

/**
 * The element's three pieces and `},` in one buffer: one part per element in every page that
 * lists it (its closing brace and comma apart were as many parts again to copy).
 */
function elementBytes(
  before: string,
  director: Uint8Array,
  after: string,
  arena: ByteArena,
): Buffer {
  const start = Buffer.byteLength(before);
  const end = start + director.length;
  const close = end + Buffer.byteLength(after);
  const bytes = arena.alloc(close + CLOSE_COMMA.length);
  bytes.write(before, 0);
  bytes.set(director, start);
  bytes.write(after, end);
  bytes.write(CLOSE_COMMA, close);
  return bytes;
}

const CLOSE_COMMA = "},";

/*
 * Keyed files are objects of these classes rather than closures: a build yields tens of thousands
 * of them, and a closure each (named by the TypeScript loader with a property definition) cost
 * more than the class's shared methods.
 */

/** A retrieve document: the element's pieces and the detail keys. */
class DetailFile {
  constructor(
    readonly path: string,
    readonly key: string,
    private readonly listed: ListedWork,
    private readonly elements: DomainElements,
  ) {}

  produce(): FileData {
    const element = this.elements.bytes(this.listed);
    return [element.subarray(0, element.length - CLOSE_COMMA.length), detailTail(this.listed)];
  }
}

/** A listing page's results: the same bytes in its three formats, gathered once, when a first one is produced. */
class PageResults {
  private shared: SharedBytes | undefined;
  constructor(
    private readonly members: readonly ListedWork[],
    private readonly elements: DomainElements,
  ) {}

  get bytes(): SharedBytes {
    if (this.shared === undefined) {
      const parts: Uint8Array[] = [];
      for (const member of this.members) parts.push(this.elements.bytes(member));
      // The last element closes without a comma.
      const last = parts.length - 1;
      if (last >= 0) parts[last] = parts[last]!.subarray(0, parts[last]!.length - 1);
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
