import type { Domain } from "../content/schema.ts";
import { API_PATH, FORMAT_DIRS, type FormatDir, type OrderingDir } from "./layout.ts";

/**
 * The absolute address of a listing page, as DRF's pagination builds it: the request's `format`
 * and `ordering` carried over, keys in alphabetical order, and page 1 written without `page`
 * (docs/interface.md#json: page 2's `previous` has no `page`).
 */
export function pageLink(
  domain: Domain,
  format: FormatDir,
  ordering: OrderingDir,
  page: number,
): string {
  const query: string[] = [];
  const formatValue = FORMAT_DIRS[format];
  if (formatValue !== null) query.push(`format=${formatValue}`);
  if (ordering !== "default") query.push(`ordering=${ordering}`);
  if (page > 1) query.push(`page=${page}`);
  const base = `${domain.base_url}${API_PATH}`;
  return query.length === 0 ? base : `${base}?${query.join("&")}`;
}

/**
 * pageLink's JSON (a quoted string) for every page of one format and ordering: the escaped text
 * before the page number is made once, and each link is it, the number and a quote (a page number
 * needs no escaping), instead of a query array, a join and JSON.stringify per link: a build makes
 * 60,000 of them per domain. An object of one class rather than a closure per format and
 * ordering: optimised code calls one known method.
 */
export class PageLinks {
  private readonly first: string;
  private readonly before: string;

  constructor(domain: Domain, format: FormatDir, ordering: OrderingDir) {
    this.first = JSON.stringify(pageLink(domain, format, ordering, 1));
    this.before = JSON.stringify(pageLink(domain, format, ordering, 2)).slice(0, -2); // without "2" and its closing quote
  }

  json(page: number): string {
    return page === 1 ? this.first : `${this.before}${page}"`;
  }
}
