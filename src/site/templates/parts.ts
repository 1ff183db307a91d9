import type { Language } from "../../content/schema.ts";
import { titleIn } from "../titles.ts";
import type { ListedWork } from "../../model/domain-view.ts";
import { formatDay, languageTag } from "../../web/i18n.ts";
import { html, type Html } from "../../web/html.ts";
import { picture } from "../image-variants.ts";
import type { SitePage } from "../model.ts";
import { link, workDir } from "../../web/urls.ts";
import type { PageContext } from "./context.ts";

// Cards in the first row or two load at once; the rest lazily (below the fold on most screens).
const EAGER_CARDS = 6;
const CARD_SIZES = "(min-width: 40rem) 11rem, 45vw";

/**
 * A grid of work cards: cover, title (the link), director and year, the "new" and "leaving soon"
 * badges; with `until`, the work's last day (the leaving page).
 */
export function cards(
  page: SitePage,
  ctx: PageContext,
  works: ListedWork[],
  start = 1,
  until = false,
): Html {
  const s = page.site.strings;
  if (works.length === 0) return html`<p>${s.empty}</p>`;
  return html`<ol class="cards" start="${start}">${works.map((listed, i) => {
    const { work } = listed;
    const cover = page.site.images.get(work.cover)!;
    const meta = [listed.director?.name, work.year === null ? null : String(work.year)]
      .filter((x) => x != null)
      .join(" · ");
    return html`
<li class="card"><a href="${link(ctx.root, workDir(work.id, work.slug))}">${picture(cover, { media: ctx.media, alt: "", sizes: CARD_SIZES, lazy: i >= EAGER_CARDS })}<span class="card-title">${titleIn(work, s.code)}</span></a>${meta ? html`<span class="card-meta">${meta}</span>` : ""}${listed.isNew ? html`<span class="badge">${s.isNew}</span>` : ""}${listed.isLeaving ? html`<span class="badge badge-leaving">${s.format("isLeaving")}</span>` : ""}${until && listed.window.until !== null ? html`<span class="card-meta card-until">${s.format("until", { date: formatDay(listed.window.until, s) })}</span>` : ""}</li>`;
  })}
</ol>`;
}

/** Previous/next links with rel, and where the reader is. */
export function pager(
  page: SitePage,
  ctx: PageContext,
  current: number,
  total: number,
  dirOf: (n: number) => string,
): Html {
  const s = page.site.strings;
  if (total <= 1) return html``;
  return html`<nav class="pager" aria-label="${s.pagination}">
${current > 1 ? html`<a rel="prev" href="${link(ctx.root, dirOf(current - 1))}">← ${s.previous}</a>` : ""}
<span>${s.pageOf(current, total)}</span>
${current < total ? html`<a rel="next" href="${link(ctx.root, dirOf(current + 1))}">${s.next} →</a>` : ""}
</nav>`;
}

/** `<link rel=prev/next>` of a paginated page, for crawlers. */
export function pagerHead(
  ctx: PageContext,
  current: number,
  total: number,
  dirOf: (n: number) => string,
): Html {
  return html`${current > 1 ? html`<link rel="prev" href="${link(ctx.root, dirOf(current - 1))}">\n` : ""}${current < total ? html`<link rel="next" href="${link(ctx.root, dirOf(current + 1))}">\n` : ""}`;
}

/** A biography as paragraphs (blank lines separate them), tagged with its language. */
export function paragraphs(text: string, lang: Language | null, pageLang: string): Html {
  const tag = lang === null ? null : languageTag(lang);
  const attr = tag !== null && tag !== pageLang ? html` lang="${tag}"` : "";
  return html`${text.split(/\n\s*\n/).map((p) => html`<p${attr}>${p.trim()}</p>`)}`;
}
