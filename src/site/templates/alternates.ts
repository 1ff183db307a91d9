import { html, type Html } from "../../web/html.ts";
import type { SitePage } from "../model.ts";
import { link } from "../../web/urls.ts";
import type { SiteVersion } from "../language-versions.ts";
import type { PageContext } from "./context.ts";

/**
 * What ties a page to its versions in the domain's other languages (src/site/language-versions.ts):
 * `<link rel="alternate" hreflang>` for search engines, absolute and on every version (so each
 * names all the others, itself included, and `x-default`, the locale's version), and the
 * visible switcher for readers. Nothing on a domain in one language.
 */

/** The absolute URL of a page of the site at `dir` in version `v`. */
const versionUrl = (page: SitePage, v: SiteVersion, dir: string) =>
  `${page.site.main.base_url}/${v.prefix}${dir}`;

export function alternateLinks(page: SitePage): Html {
  const { versions } = page.site;
  const dir = page.dir;
  if (versions.length <= 1 || dir === null) return html``;
  return html`${versions.map((v) => (v.hreflang === null ? "" : html`<link rel="alternate" hreflang="${v.hreflang}" href="${versionUrl(page, v, dir)}">\n`))}<link rel="alternate" hreflang="x-default" href="${versionUrl(page, versions[0]!, dir)}">\n`;
}

/** The switcher: the same page in each other language (the 404 page: their home pages). */
export function languageSwitcher(page: SitePage, ctx: PageContext): Html {
  const { site } = page;
  if (site.versions.length <= 1) return html``;
  const href = (v: SiteVersion) =>
    page.dir === null ? `${site.main.base_path}/${v.prefix}` : link(ctx.main + v.prefix, page.dir);
  return html`<nav class="languages" aria-label="${site.strings.languages}"><ul>${site.versions.map(
    (v) =>
      v.prefix === site.prefix
        ? html`<li><span lang="${v.lang}" aria-current="true">${v.label}</span></li>`
        : html`<li><a href="${href(v)}" hreflang="${v.lang}" lang="${v.lang}">${v.label}</a></li>`,
  )}</ul></nav>
`;
}
