import { html, type Html } from "../../web/html.ts";
import { browseFacts } from "../work-facts.ts";
import { titleIn } from "../titles.ts";
import { biography } from "../biography.ts";
import { formatDay } from "../../web/i18n.ts";
import { picture } from "../image-variants.ts";
import type { SitePage } from "../model.ts";
import { apiDetailDir, categoryDir, directorDir, link } from "../../web/urls.ts";
import type { PageContext } from "./context.ts";
import { layout } from "./frame.ts";
import { paragraphs } from "./parts.ts";

export type Work = Extract<SitePage, { kind: "work" }>;

/** One work: the title is the page's only `<h1>`. */
export function workPage(page: Work, ctx: PageContext): string {
  const { site, listed } = page;
  const { work, director } = listed;
  const s = site.strings;
  const json = link(ctx.main, apiDetailDir(work.id));
  const bio = director === null ? null : biography(director, s.code);
  const photo =
    director?.show_img && director.photo !== null ? site.images.get(director.photo) : undefined;
  const watch =
    page.watch === null
      ? ""
      : html`<p class="watch"><a href="${page.watch}">${s.format("work.watch")}</a></p>\n`;
  const main = html`<article class="work">
${summary(page, ctx, watch)}
${
  page.synopsis !== null
    ? html`<section class="synopsis" aria-labelledby="synopsis-title">
<h2 id="synopsis-title">${s.format("work.synopsis")}</h2>
${paragraphs(page.synopsis.text, page.synopsis.lang, s.lang)}
</section>`
    : ""
}
${
  director !== null && (bio !== null || photo !== undefined)
    ? html`<section class="bio" aria-labelledby="bio-title">
<h2 id="bio-title">${s.about(director.name)}</h2>
${photo !== undefined ? picture(photo, { media: ctx.media, alt: s.photo(director.name), sizes: "8rem", lazy: true, className: "photo" }) : ""}
${bio !== null ? paragraphs(bio.text, bio.lang, s.lang) : ""}
</section>`
    : ""
}
<p><a href="${json}" type="application/json">${s.json}</a></p>
</article>`;
  const head = html`<link rel="alternate" type="application/json" href="${json}">\n`;
  return layout(page, ctx, { title: titleIn(work, s.code), main, head });
}

/** The title, cover and facts; `after` ends the facts' column (the link to watch or borrow). */
function summary(page: Work, ctx: PageContext, after: Html | "" = ""): Html {
  const { site, listed } = page;
  const { work, director, window } = listed;
  const s = site.strings;
  const title = titleIn(work, s.code);
  return html`<h1>${title}</h1>
<div class="work-body">
${picture(site.images.get(work.cover)!, { media: ctx.media, alt: s.cover(title), sizes: "(min-width: 40rem) 20rem, 90vw", lazy: false, className: "cover" })}
<div class="facts">
<dl>
${director !== null ? html`<dt>${s.director}</dt><dd><a href="${link(ctx.root, directorDir(director.slug))}">${director.name}</a></dd>\n` : ""}${work.audiovisual_type !== null ? html`<dt>${s.category}</dt><dd><a href="${link(ctx.root, categoryDir(work.audiovisual_type, 1))}">${s.categories[work.audiovisual_type]}</a></dd>\n` : ""}</dl>
<dl>
${work.year !== null ? html`<dt>${s.year}</dt><dd>${work.year}</dd>\n` : ""}${work.duration !== null ? html`<dt>${s.duration}</dt><dd>${s.minutes(work.duration)}</dd>\n` : ""}${browseFacts(work, s, site.versions[0]?.lang ?? s.lang)}<dt>${s.availableFrom}</dt><dd><time datetime="${window.from}">${formatDay(window.from, s)}</time>${listed.isNew ? html` <span class="badge">${s.isNew}</span>` : ""}</dd>
<dt>${s.availableUntil}</dt><dd>${window.until === null ? s.noEnd : html`<time datetime="${window.until}">${formatDay(window.until, s)}</time>${listed.isLeaving ? html` <span class="badge badge-leaving">${s.format("isLeaving")}</span>` : ""}`}</dd>
</dl>
${after}</div>
</div>`;
}
