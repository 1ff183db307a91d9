import { PAGE_SIZE } from "../../api/layout.ts";
import { ORDERINGS } from "../../content/schema.ts";
import { html } from "../../web/html.ts";
import type { SitePage } from "../model.ts";
import { link, listingDir } from "../../web/urls.ts";
import type { PageContext } from "./context.ts";
import { layout } from "./frame.ts";
import { filterPanel, filterResults, filterScript } from "./filters.ts";
import { cards, pager, pagerHead } from "./parts.ts";

type Listing = Extract<SitePage, { kind: "listing" }>;

/** A page of the catalogue in one ordering, with the filter panel and search box, and the ordering switch. */
export function listingPage(page: Listing, ctx: PageContext): string {
  const { site } = page;
  const s = site.strings;
  const defaultOrdering = site.defaultOrdering;
  const dirOf = (n: number) => listingDir(page.ordering, defaultOrdering, n);
  const main = html`<h1>${s.catalogue}</h1>
<p class="summary">${s.works(page.count)} · ${s.pageOf(page.page, page.pages)}</p>
<div class="browsing">
${filterPanel(page)}
<div class="browsing-main">
<div data-static>
<nav class="orderings" aria-label="${s.orderBy}"><span>${s.orderBy}:</span><ul>${ORDERINGS.map(
    (o) =>
      html`<li><a href="${link(ctx.root, listingDir(o, defaultOrdering, 1))}"${o === page.ordering ? html` aria-current="page"` : ""}>${s.orderings[o]}</a></li>`,
  )}</ul></nav>
${cards(page, ctx, page.works, (page.page - 1) * PAGE_SIZE + 1)}
${pager(page, ctx, page.page, page.pages, dirOf)}
</div>
${filterResults(page)}
</div>
</div>
${filterScript(ctx, page.ordering)}`;
  const title = `${s.catalogue}: ${s.orderings[page.ordering]}, ${s.pageOf(page.page, page.pages).toLowerCase()}`;
  return layout(page, ctx, {
    title,
    main,
    head: pagerHead(ctx, page.page, page.pages, dirOf),
  });
}
