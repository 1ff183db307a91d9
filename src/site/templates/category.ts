import { PAGE_SIZE } from "../../api/layout.ts";
import { html } from "../../web/html.ts";
import type { SitePage } from "../model.ts";
import { categoryDir } from "../../web/urls.ts";
import type { PageContext } from "./context.ts";
import { layout } from "./frame.ts";
import { cards, pager, pagerHead } from "./parts.ts";

type Category = Extract<SitePage, { kind: "category" }>;

/** The listed works of one category in name order, 20 per page. */
export function categoryPage(page: Category, ctx: PageContext): string {
  const s = page.site.strings;
  const name = s.categories[page.type];
  const dirOf = (n: number) => categoryDir(page.type, n);
  const main = html`<h1>${name}</h1>
<p class="summary">${s.works(page.count)} · ${s.pageOf(page.page, page.pages)}</p>
${cards(page, ctx, page.works, (page.page - 1) * PAGE_SIZE + 1)}
${pager(page, ctx, page.page, page.pages, dirOf)}`;
  const title = page.page > 1 ? `${name}, ${s.pageOf(page.page, page.pages).toLowerCase()}` : name;
  return layout(page, ctx, { title, main, head: pagerHead(ctx, page.page, page.pages, dirOf) });
}
