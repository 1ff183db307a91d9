import { EXPORT_KINDS } from "../../api/layout.ts";
import { AUDIOVISUAL_TYPES } from "../../content/schema.ts";
import { flatten, html, raw, type Html } from "../../web/html.ts";
import { baseData, kindData, kindOf } from "../folder/template-data.ts";
import { safe } from "../folder/engines.ts";
import type { Part } from "../folder/folder.ts";
import { brandHead, favicon } from "../brand.ts";
import { picture } from "../image-variants.ts";
import type { SitePage } from "../model.ts";
import { pageTrail } from "../page-meta.ts";
import {
  ASSETS_DIR,
  categoryDir,
  decadesDir,
  exportDir,
  FEED_FILE,
  link,
  shelfDir,
} from "../../web/urls.ts";
import type { PageContext } from "./context.ts";
import { seoHead } from "./head.ts";
import { languageSwitcher } from "./alternates.ts";

export interface LayoutOptions {
  title: string;
  main: Html;
  /** Extra `<link>` elements of the head (rel=prev/next, the JSON alternate). */
  head?: Html;
}

/** The document around every page: language, skip link, header, footer with the downloads. */
export function layout(page: SitePage, ctx: PageContext, o: LayoutOptions): string {
  const { site } = page;
  const s = site.strings;
  const { root } = ctx;
  const { siteFolder: look } = site;
  const title =
    page.kind === "listing" && page.page === 1 && page.ordering === site.defaultOrdering
      ? site.info.name
      : `${o.title} · ${site.info.name}`;
  // A library's templates (site/_includes/) replace the header, the footer or a page kind's
  // content; their data is made only for the parts they replace.
  const override =
    look.parts.size === 0
      ? null
      : (part: Part, builtin: Html, data: () => Record<string, unknown>) => {
          const template = look.parts.get(part);
          return template === undefined
            ? builtin
            : raw(template({ ...data(), content: safe(flatten(builtin.value)) }));
        };
  const kind = kindOf(page) as Part;
  const main = override === null ? o.main : override(kind, o.main, () => kindData(page, ctx));
  const header =
    override === null
      ? siteHeader(page, ctx)
      : override("header", siteHeader(page, ctx), () => baseData(page, ctx));
  const footer =
    override === null
      ? siteFooter(page, ctx)
      : override("footer", siteFooter(page, ctx), () => baseData(page, ctx));
  return html`<!doctype html>
<html lang="${s.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${favicon(site, ctx)}<link rel="stylesheet" href="${root}${ASSETS_DIR}style.css">
${brandHead(site, root)}${seoHead(page, ctx, title)}${o.head ?? ""}</head>
<body>
<a class="skip" href="#main">${s.skip}</a>
${header}
<main id="main">
${trail(page, ctx)}${main}
</main>
${footer}
</body>
</html>
`.value;
}

/** The library's brand (its logo, or its name: the page's `<h1>` says what the page is), the languages, the categories and the own pages. */
function siteHeader(page: SitePage, ctx: PageContext): Html {
  const { site } = page;
  const s = site.strings;
  const { root } = ctx;
  const categories = AUDIOVISUAL_TYPES.filter((t) => site.categories.has(t));
  const logo = site.brand.logo === undefined ? undefined : site.images.get(site.brand.logo);
  const brand =
    logo === undefined
      ? html`${site.info.name}`
      : picture(logo, {
          media: ctx.media,
          alt: site.info.name,
          sizes: "12rem",
          lazy: false,
          className: "logo",
        });
  return html`<header class="site-header">
<a class="brand" href="${link(root, "")}">${brand}</a>
${languageSwitcher(page, ctx)}${categories.length > 0 ? html`<nav aria-label="${s.category}"><ul>${categories.map((t) => html`<li><a href="${link(root, categoryDir(t, 1))}"${page.kind === "category" && page.type === t ? html` aria-current="page"` : ""}>${s.categories[t]}</a></li>`)}</ul></nav>` : ""}
<nav class="browse" aria-label="${s.format("browse.nav")}"><ul>${BROWSE_LINKS.map(([key, dir, shelf]) => html`<li><a href="${link(root, dir)}"${page.kind === "browse" && page.shelf === shelf && page.page === 1 ? html` aria-current="page"` : ""}>${s.format(key)}</a></li>`)}</ul></nav>${
    site.nav.length > 0
      ? html`
<nav class="pages" aria-label="${s.format("pagesNav")}"><ul>${site.nav.map((p) => html`<li><a href="${link(root, p.dir)}"${page.dir === p.dir ? html` aria-current="page"` : ""}>${p.title}</a></li>`)}</ul></nav>`
      : ""
  }
</header>`;
}

/** The browse pages the header links to, with the shelf whose first page each is. */
const BROWSE_LINKS = [
  ["browse.new", shelfDir("new", 1), "new"],
  ["browse.leaving", shelfDir("leaving", 1), "leaving"],
  ["browse.decades", decadesDir(), "decades"],
] as const;

/** For the public: the library's own website; then, in their own place, the data for reuse (spreadsheets, feed). */
function siteFooter(page: SitePage, ctx: PageContext): Html {
  const { site } = page;
  const s = site.strings;
  return html`<footer class="site-footer">
${site.brand.home_url !== undefined ? html`<p class="library"><a href="${site.brand.home_url}">${s.format("homeLink")}</a></p>\n` : ""}<section class="data" aria-labelledby="data-title">
<h2 id="data-title">${s.downloads}</h2>
<ul>${EXPORT_KINDS.map((kind) => html`<li><a href="${ctx.main}${exportDir(kind)}" download="${site.info.exports[kind] ?? ""}" type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">${s.exports[kind]}</a></li>`)}<li><a href="${ctx.root}${FEED_FILE}" type="application/atom+xml">${s.feedLink}</a></li></ul>
</section>
</footer>`;
}

/** The visible breadcrumb trail (the same steps as the page's BreadcrumbList); the last step is the page itself. */
function trail(page: SitePage, ctx: PageContext): Html {
  const steps = pageTrail(page);
  if (steps.length === 0) return html``;
  const last = steps.length - 1;
  return html`<nav class="breadcrumb" aria-label="${page.site.strings.breadcrumb}"><ol>${steps.map(
    (step, i) =>
      i === last
        ? html`<li aria-current="page">${step.name}</li>`
        : html`<li><a href="${link(ctx.root, step.dir)}">${step.name}</a></li>`,
  )}</ol></nav>
`;
}
