import { EXPORT_KINDS } from "../../api/layout.ts";
import { AUDIOVISUAL_TYPES } from "../../content/schema.ts";
import { html, type Html } from "../html.ts";
import type { SitePage } from "../model.ts";
import { pageTrail } from "../page-meta.ts";
import { ASSETS_DIR, categoryDir, exportDir, FEED_FILE, link, SEARCH_DIR } from "../urls.ts";
import type { PageContext } from "./context.ts";
import { seoHead } from "./head.ts";
import { languageSwitcher } from "./languages.ts";

export interface LayoutOptions {
  title: string;
  main: Html;
  /** Extra `<link>` elements of the head (rel=prev/next, the JSON alternate). */
  head?: Html;
  /** Whether the page carries the search box (listing pages). */
  search?: boolean;
}

/** The document around every page: language, skip link, header, footer with the downloads. */
export function layout(page: SitePage, ctx: PageContext, o: LayoutOptions): string {
  const { site } = page;
  const s = site.strings;
  const { root } = ctx;
  const categories = AUDIOVISUAL_TYPES.filter((t) => site.categories.has(t));
  const title = page.kind === "listing" && page.page === 1 && page.ordering === site.defaultOrdering ? site.info.name : `${o.title} · ${site.info.name}`;
  return html`<!doctype html>
<html lang="${s.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${root}${ASSETS_DIR}style.css">
${seoHead(page, ctx, title)}${o.head ?? ""}</head>
<body>
<a class="skip" href="#main">${s.skip}</a>
<header class="site-header">
<a class="brand" href="${link(root, "")}">${site.info.name}</a>
${languageSwitcher(page, ctx)}${categories.length > 0 ? html`<nav aria-label="${s.category}"><ul>${categories.map((t) => html`<li><a href="${link(root, categoryDir(t, 1))}"${page.kind === "category" && page.type === t ? html` aria-current="page"` : ""}>${s.categories[t]}</a></li>`)}</ul></nav>` : ""}
</header>
<main id="main">
${trail(page, ctx)}${o.main}
</main>
<footer class="site-footer">
<h2>${s.downloads}</h2>
<ul>${EXPORT_KINDS.map((kind) => html`<li><a href="${ctx.main}${exportDir(kind)}" download="${site.info.exports[kind] ?? ""}" type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">${s.exports[kind]}</a></li>`)}<li><a href="${root}${FEED_FILE}" type="application/atom+xml">${s.feedLink}</a></li></ul>
</footer>
${o.search ? html`<script src="${root}${ASSETS_DIR}search.js" data-pagefind="${root}${SEARCH_DIR}pagefind.js" defer></script>\n` : ""}</body>
</html>
`.value;
}

/** The visible breadcrumb trail (the same steps as the page's BreadcrumbList); the last step is the page itself. */
function trail(page: SitePage, ctx: PageContext): Html {
  const steps = pageTrail(page);
  if (steps.length === 0) return html``;
  const last = steps.length - 1;
  return html`<nav class="breadcrumb" aria-label="${page.site.strings.breadcrumb}"><ol>${steps.map((step, i) =>
    i === last ? html`<li aria-current="page">${step.name}</li>` : html`<li><a href="${link(ctx.root, step.dir)}">${step.name}</a></li>`,
  )}</ol></nav>
`;
}
