import { EXPORT_KINDS } from "../../api/layout.ts";
import { AUDIOVISUAL_TYPES } from "../../content/schema.ts";
import { html, type Html } from "../html.ts";
import type { SitePage } from "../model.ts";
import { ASSETS_DIR, categoryDir, exportDir, link, SEARCH_DIR } from "../urls.ts";
import type { PageContext } from "./context.ts";

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
${o.head ?? ""}</head>
<body>
<a class="skip" href="#main">${s.skip}</a>
<header class="site-header">
<a class="brand" href="${link(root, "")}">${site.info.name}</a>
${categories.length > 0 ? html`<nav aria-label="${s.category}"><ul>${categories.map((t) => html`<li><a href="${link(root, categoryDir(t, 1))}"${page.kind === "category" && page.type === t ? html` aria-current="page"` : ""}>${s.categories[t]}</a></li>`)}</ul></nav>` : ""}
</header>
<main id="main">
${o.main}
</main>
<footer class="site-footer">
<h2>${s.downloads}</h2>
<ul>${EXPORT_KINDS.map((kind) => html`<li><a href="${root}${exportDir(kind)}" download="${site.info.exports[kind] ?? ""}" type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">${s.exports[kind]}</a></li>`)}</ul>
</footer>
${o.search ? html`<script src="${root}${ASSETS_DIR}search.js" data-pagefind="${root}${SEARCH_DIR}pagefind.js" defer></script>\n` : ""}</body>
</html>
`.value;
}
