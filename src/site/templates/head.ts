import { html, raw, type Html } from "../../web/html.ts";
import type { SitePage } from "../model.ts";
import { pageDescription, pageImage } from "../page-meta.ts";
import { scriptJson, structuredData } from "../structured-data.ts";
import { absoluteUrl, FEED_FILE, JSON_FEED_FILE } from "../../web/urls.ts";
import type { PageContext } from "./context.ts";
import { alternateLinks } from "./alternates.ts";

/**
 * The part of every page's head that search engines and link previews read: the meta
 * description, the canonical link, the Open Graph and Twitter card tags, the feed link and the
 * JSON-LD. The 404 page has no canonical URL and asks not to be indexed.
 */
export function seoHead(page: SitePage, ctx: PageContext, title: string): Html {
  const { site } = page;
  const description = pageDescription(page);
  const feed = html`<link rel="alternate" type="application/atom+xml" title="${site.strings.feedTitle(site.info.name)}" href="${ctx.root}${FEED_FILE}">\n<link rel="alternate" type="application/feed+json" title="${site.strings.format("feed.shelfTitle", { library: site.info.name })}" href="${ctx.root}${JSON_FEED_FILE}">\n`;
  if (page.dir === null)
    return html`<meta name="description" content="${description}">\n<meta name="robots" content="noindex">\n${feed}`;
  const url = absoluteUrl(site.info.base_url, page.dir);
  const image = pageImage(page);
  const data = structuredData(page);
  return html`<meta name="description" content="${description}">
<link rel="canonical" href="${url}">
${alternateLinks(page)}${feed}<meta property="og:type" content="${OG_TYPE[page.kind]}">
<meta property="og:site_name" content="${site.info.name}">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${url}">
<meta property="og:locale" content="${ogLocale(site.info.locale, site.strings.lang)}">
${
  image !== null
    ? html`<meta property="og:image" content="${image.url}">
<meta property="og:image:width" content="${image.width}">
<meta property="og:image:height" content="${image.height}">
<meta property="og:image:alt" content="${image.alt}">
`
    : ""
}<meta name="twitter:card" content="${image !== null ? "summary_large_image" : "summary"}">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">
${
  image !== null
    ? html`<meta name="twitter:image" content="${image.url}">
<meta name="twitter:image:alt" content="${image.alt}">
`
    : ""
}${data !== null ? html`<script type="application/ld+json">${raw(scriptJson(data) /* escaped for a script element, not HTML */)}</script>\n` : ""}`;
}

const OG_TYPE: Record<SitePage["kind"], string> = {
  listing: "website",
  category: "website",
  browse: "website",
  work: "video.movie",
  director: "profile",
  "not-found": "website",
  own: "website",
};

/**
 * Open Graph's `language_TERRITORY`: the domain's region when its locale is the page's language,
 * else the language's usual one. `lang` is the page's tag (`ca-valencia` is Catalan of Spain).
 */
export function ogLocale(locale: string, lang: string): string {
  const [language, ...rest] = locale.split("-");
  const region = rest.find((part) => /^[A-Za-z]{2}$/.test(part));
  const base = lang.split("-")[0]!;
  const sameLanguage =
    language?.toLowerCase() === base ||
    (lang === "ca-valencia" && language?.toLowerCase() === "va");
  if (sameLanguage && region !== undefined) return `${base}_${region.toUpperCase()}`;
  return DEFAULT_REGION[lang] ?? lang;
}

const DEFAULT_REGION: Record<string, string> = {
  es: "es_ES",
  en: "en_GB",
  ca: "ca_ES",
  "ca-valencia": "ca_ES",
  gl: "gl_ES",
  eu: "eu_ES",
  fr: "fr_FR",
};
