import { html } from "../../web/html.ts";
import type { SitePage } from "../model.ts";
import { link } from "../../web/urls.ts";
import type { PageContext } from "./context.ts";
import { layout } from "./frame.ts";

/** The page servers answer with status 404 for any unknown URL of the site. */
export function notFoundPage(page: SitePage, ctx: PageContext): string {
  const s = page.site.strings;
  const main = html`<h1>${s.notFound}</h1>
<p>${s.notFoundText}</p>
<p><a href="${link(ctx.root, "")}">${s.backHome}</a></p>`;
  return layout(page, ctx, { title: s.notFound, main });
}
