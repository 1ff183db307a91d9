import { UserError } from "../../errors.ts";
import type { DomainSite, SitePage } from "../model.ts";
import { pageContext } from "../templates/context.ts";
import { pagesFor } from "./own-pages.ts";
import { baseData } from "./template-data.ts";

/** The own pages of one site (a domain in one language), bodies rendered with the site's data. */
export function* ownSitePages(site: DomainSite): Generator<SitePage> {
  if (site.siteFolder.pages.length === 0) return;
  const taken = new Set(site.versions.map((v) => v.prefix.slice(0, -1)).filter(Boolean));
  for (const own of pagesFor(site.siteFolder.pages, site.strings.code)) {
    const first = own.dir.slice(0, own.dir.indexOf("/"));
    // The seven languages are refused when the folder is read; a version outside them has its tag.
    if (taken.has(first))
      throw new UserError(
        `${own.file}: /${first}/ is the "${first}" version of ${site.info.domain}: choose another path for this page`,
      );
    const page: SitePage = {
      kind: "own",
      dir: own.dir,
      site,
      title: own.title,
      description: own.description,
      file: own.file,
      body: "",
    };
    page.body =
      typeof own.body === "string"
        ? own.body
        : own.body({ ...baseData(page, pageContext(page)), title: own.title });
    yield page;
  }
}
