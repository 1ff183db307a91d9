import * as pagefind from "pagefind";
import type { OutputTree } from "../output/tree.ts";
import type { DomainSite } from "./model.ts";
import { SEARCH_DIR } from "./urls.ts";

/**
 * One Pagefind index per domain, fed with the rendered work pages while Eleventy renders them
 * (Pagefind indexes in its own process, on the other core). Result URLs are relative to the
 * site root; Pagefind's script resolves them against the folder above `pagefind/`, so the index
 * works under any base path.
 */

// Some CDNs limit the files of a site: above this many pages Pagefind bundles fragments together.
const MAX_FRAGMENTS = 200;
// Indexing requests in flight per index: enough to keep the Pagefind process busy.
const IN_FLIGHT = 64;
// Only the search API is used (assets/search.js draws the results): Pagefind's ready-made UIs
// and the highlighter are left out of the output.
const UNUSED = /(^|\/)pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$|^wasm\.unknown\.pagefind$/;

export class SearchIndex {
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown = null;

  private constructor(
    readonly site: DomainSite,
    private readonly index: pagefind.PagefindIndex,
  ) {}

  static async open(site: DomainSite): Promise<SearchIndex> {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: site.strings.lang, maxFragments: MAX_FRAGMENTS });
    if (index === undefined) throw new Error(`Pagefind could not create an index: ${errors.join("; ")}`);
    return new SearchIndex(site, index);
  }

  /** Queues one rendered page (`url` relative to the site root); waits when too many are in flight. */
  async add(url: string, content: string): Promise<void> {
    if (this.failure !== null) throw this.failure;
    const job = this.index.addHTMLFile({ url, content }).then(({ errors }) => {
      if (errors.length > 0) throw new Error(`Pagefind could not index ${url}: ${errors.join("; ")}`);
    });
    const tracked = job.catch((error) => void (this.failure ??= error)).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    if (this.pending.size >= IN_FLIGHT) await Promise.race(this.pending);
  }

  /** Builds the index: its files, in path order, without the unused ones. */
  async files(): Promise<{ path: string; content: Uint8Array }[]> {
    await Promise.all(this.pending);
    if (this.failure !== null) throw this.failure;
    const { files, errors } = await this.index.getFiles();
    if (errors.length > 0) throw new Error(`Pagefind could not build the index: ${errors.join("; ")}`);
    await this.index.deleteIndex();
    return files.filter((file) => !UNUSED.test(file.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** Writes the index under `<site root>/pagefind/`. */
  async write(tree: OutputTree, files: { path: string; content: Uint8Array }[]): Promise<void> {
    for (const file of files) await tree.write(`${this.site.folder}${SEARCH_DIR}${file.path}`, file.content);
  }
}

/** Stops the Pagefind process (it would otherwise keep Node alive). */
export const closeSearch = () => pagefind.close();
