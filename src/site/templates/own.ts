import { html, raw } from "../../web/html.ts";
import type { SitePage } from "../model.ts";
import type { PageContext } from "./context.ts";
import { layout } from "./frame.ts";

type Own = Extract<SitePage, { kind: "own" }>;

/**
 * A library's own page (site/pages/, src/site/folder/own-pages.ts): its title is the page's `<h1>`,
 * its body the library's HTML (its Markdown rendered, or its template's output, escaped there).
 */
export function ownPage(page: Own, ctx: PageContext): string {
  const main = html`<article class="own">
<h1>${page.title}</h1>
${raw(page.body)}
</article>`;
  return layout(page, ctx, { title: page.title, main });
}
