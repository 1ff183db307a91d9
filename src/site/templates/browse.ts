import { PAGE_SIZE } from "../../api/layout.ts";
import { html } from "../../web/html.ts";
import type { SitePage } from "../model.ts";
import { shelfTitle } from "../page-meta.ts";
import { decadeDir, decadesDir, link, shelfDir } from "../../web/urls.ts";
import type { PageContext } from "./context.ts";
import { layout } from "./frame.ts";
import { cards, pager, pagerHead } from "./parts.ts";

type Browse = Extract<SitePage, { kind: "browse" }>;

/** The folder of page `n` of a browse page's shelf. */
export const browseDir = (page: Browse, n: number): string =>
  page.shelf === "decade"
    ? decadeDir(page.decade!, n)
    : page.shelf === "decades"
      ? decadesDir()
      : shelfDir(page.shelf, n);

/** What the filters on the home page take for this shelf (how a reader goes on from a static page). */
function refineQuery(page: Browse): string | null {
  switch (page.shelf) {
    case "decades":
      return null;
    case "decade":
      return `?decade=${page.decade}`;
    case "new":
      return "?new=1";
    case "leaving":
      return "?leaving=1";
  }
}

/**
 * A browse page, without JavaScript: the decades' index (each decade a link with its count), or
 * the works of a decade, the new works or the leaving ones (with their last day), 20 per page.
 */
export function browsePage(page: Browse, ctx: PageContext): string {
  const s = page.site.strings;
  const name = shelfTitle(page);
  const dirOf = (n: number) => browseDir(page, n);
  const query = refineQuery(page);
  const days = s.format("days", { n: page.days ?? 0 });
  const body =
    page.shelf === "decades"
      ? page.decades.length === 0
        ? html`<p>${s.empty}</p>`
        : html`<ul class="decades">${page.decades.map(({ decade, count }) => html`<li><a href="${link(ctx.root, decadeDir(decade, 1))}">${s.format("browse.decade", { decade: String(decade) })}</a> <span class="decade-count">${s.works(count)}</span></li>`)}</ul>`
      : page.count === 0
        ? html`<p>${s.format(page.shelf === "new" ? "browse.noneNew" : "browse.noneLeaving", { days })}</p>`
        : cards(page, ctx, page.works, (page.page - 1) * PAGE_SIZE + 1, page.shelf === "leaving");
  const main = html`<h1>${name}</h1>
<p class="summary">${s.works(page.count)}${page.pages > 1 ? ` · ${s.pageOf(page.page, page.pages)}` : ""}</p>
${body}
${pager(page, ctx, page.page, page.pages, dirOf)}${query === null ? "" : html`<p class="refine"><a href="${link(ctx.root, "")}${query}">${s.format("browse.refine")}</a></p>`}`;
  const title = page.page > 1 ? `${name}, ${s.pageOf(page.page, page.pages).toLowerCase()}` : name;
  return layout(page, ctx, { title, main, head: pagerHead(ctx, page.page, page.pages, dirOf) });
}
