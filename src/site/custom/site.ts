import { UserError } from "../../errors.ts";
import type { DomainBrand } from "../../content/schema.ts";
import type { DomainSite, SitePage } from "../model.ts";
import { pageContext } from "../templates/context.ts";
import type { Look } from "./look.ts";
import type { Language } from "../../content/schema.ts";
export { lookStrings } from "./texts.ts";
import { pagesFor } from "./pages.ts";
import { baseData } from "./data.ts";

/** What a domain's pages show of its brand columns. */
export type Brand = DomainBrand;

/** An own page in the header's navigation. */
export interface NavLink {
  dir: string;
  title: string;
}

/** The own pages of one site (a domain in one language), bodies rendered with the site's data. */
export function* ownSitePages(site: DomainSite): Generator<SitePage> {
  if (site.look.pages.length === 0) return;
  const taken = new Set(site.versions.map((v) => v.prefix.slice(0, -1)).filter(Boolean));
  for (const own of pagesFor(site.look.pages, site.strings.code)) {
    const first = own.dir.slice(0, own.dir.indexOf("/"));
    // The seven languages are refused when the folder is read; a version outside them has its tag.
    if (taken.has(first)) throw new UserError(`${own.file}: /${first}/ is the "${first}" version of ${site.info.domain}: choose another path for this page`);
    const page: SitePage = { kind: "own", dir: own.dir, site, title: own.title, description: own.description, file: own.file, body: "" };
    page.body = typeof own.body === "string" ? own.body : own.body({ ...baseData(page, pageContext(page)), title: own.title });
    yield page;
  }
}

/** The own pages the navigation lists in a language (each page's title in it), by their `nav` number. */
export function navLinks(look: Look, code: Language): NavLink[] {
  const order = new Map(look.pages.flatMap((p) => (p.lang === null && p.nav !== null ? [[p.dir, p.nav] as const] : [])));
  if (order.size === 0) return [];
  return pagesFor(look.pages, code)
    .filter((p) => order.has(p.dir))
    .sort((a, b) => order.get(a.dir)! - order.get(b.dir)! || (a.dir < b.dir ? -1 : 1))
    .map((p) => ({ dir: p.dir, title: p.title }));
}
