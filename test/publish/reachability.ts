import { API_PATH } from "../../src/api/layout.ts";

/**
 * What a reader of the bucket can reach, modelled from the writes the server accepted: after
 * every write, every listing page reachable from an entry document (each listing's first page and
 * `last.json`) must find the pages it links to and the images it shows. Checking every state the
 * bucket went through is stronger than sampling it with a concurrent reader.
 */

/** The object path a URL of the API or of a media host is stored at. */
export function pathOfUrl(url: string): string {
  const u = new URL(url);
  if (u.pathname.endsWith(API_PATH)) {
    const q = u.searchParams;
    return `${u.host}/_api/list/${q.get("format") ?? "plain"}/${q.get("ordering") ?? "default"}/${q.get("page") ?? "1"}.json`;
  }
  return `${u.host}${u.pathname}`;
}

const LIST_PAGE = /^[^/]+\/_api\/list\/[^/]+\/[^/]+\/[^/]+\.json$/;
const ENTRY = /^[^/]+\/_api\/list\/[^/]+\/[^/]+\/(1|last)\.json$/;

/** The pages and images a listing page links to (none for any other file). */
export function referencesOf(rel: string, bytes: Buffer): string[] {
  if (!LIST_PAGE.test(rel)) return [];
  const page = JSON.parse(bytes.toString("utf8")) as {
    links: { next: string | null; previous: string | null };
    results: { cover: string; director: { photo?: string | null } | null }[];
  };
  const refs = [page.links.next, page.links.previous]
    .filter((u): u is string => u !== null)
    .map(pathOfUrl);
  for (const work of page.results) {
    refs.push(pathOfUrl(work.cover));
    if (work.director?.photo) refs.push(pathOfUrl(work.director.photo));
  }
  return refs;
}

export class BucketModel {
  /** Each object the bucket holds, with what it references. */
  readonly objects = new Map<string, string[]>();
  readonly violations: string[] = [];
  checked = 0;

  put(rel: string, bytes: Buffer) {
    this.objects.set(rel, referencesOf(rel, bytes));
  }

  delete(rel: string) {
    this.objects.delete(rel);
  }

  /** Checks the current state: what is reachable from the entry documents is whole. */
  check(after: string) {
    this.checked++;
    const seen = new Set<string>();
    const queue = [...this.objects.keys()].filter((rel) => ENTRY.test(rel));
    while (queue.length > 0) {
      const rel = queue.pop()!;
      if (seen.has(rel)) continue;
      seen.add(rel);
      for (const ref of this.objects.get(rel) ?? []) {
        if (!this.objects.has(ref)) {
          if (this.violations.length < 10)
            this.violations.push(`after ${after}: ${rel} links to ${ref}, which the bucket lacks`);
          continue;
        }
        if (LIST_PAGE.test(ref)) queue.push(ref);
      }
    }
  }
}
