import { html } from "../../web/html.ts";
import { biography } from "../biography.ts";
import { picture } from "../image-variants.ts";
import type { SitePage } from "../model.ts";
import type { PageContext } from "./context.ts";
import { layout } from "./frame.ts";
import { cards, paragraphs } from "./parts.ts";

type DirectorPage = Extract<SitePage, { kind: "director" }>;

/** A director: photo (when `show_img`), biography, and their listed works in name order. */
export function directorPage(page: DirectorPage, ctx: PageContext): string {
  const { site, director } = page;
  const s = site.strings;
  const bio = biography(director, s.code);
  const photo =
    director.show_img && director.photo !== null ? site.images.get(director.photo) : undefined;
  const main = html`<h1>${director.name}</h1>
<div class="bio">
${photo !== undefined ? picture(photo, { media: ctx.media, alt: s.photo(director.name), sizes: "8rem", lazy: false, className: "photo" }) : ""}
${bio !== null ? paragraphs(bio.text, bio.lang, s.lang) : ""}
</div>
<h2>${s.worksOf}</h2>
${cards(page, ctx, page.works)}`;
  return layout(page, ctx, { title: director.name, main });
}
