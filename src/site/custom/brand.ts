import { html, type Html } from "../html.ts";
import type { DomainSite } from "../model.ts";
import type { PageContext } from "../templates/context.ts";
import { ASSETS_DIR } from "../urls.ts";
import { SITE_CSS } from "./look.ts";

/**
 * A domain's brand in every page's head: the favicon (the logo's smallest variant, else the
 * package's drawn one), the theme colour (`<meta name="theme-color">` and the accent of the
 * default stylesheet, set by a stylesheet of the site, not an inline style: the pages' content
 * security policy allows no inline style), and the library's own stylesheet after the default.
 */

/** The per-site stylesheet that sets the accent from `theme_color`. */
export const THEME_CSS = "theme.css";
export const FAVICON = "favicon.svg";

export function favicon(site: DomainSite, ctx: PageContext): Html {
  const logo = site.brand.logo === undefined ? undefined : site.images.get(site.brand.logo);
  const small = logo?.jpeg[0];
  if (small !== undefined)
    return html`<link rel="icon" href="${ctx.media}${small.file}" type="image/jpeg">\n`;
  return html`<link rel="icon" href="${ctx.root}${ASSETS_DIR}${FAVICON}" type="image/svg+xml">\n`;
}

export function brandHead(site: DomainSite, root: string): Html {
  const color = site.brand.theme_color;
  return html`${color !== undefined ? html`<meta name="theme-color" content="${color}">\n<link rel="stylesheet" href="${root}${ASSETS_DIR}${THEME_CSS}">\n` : ""}${site.look.hasStylesheet ? html`<link rel="stylesheet" href="${root}${ASSETS_DIR}${SITE_CSS}">\n` : ""}`;
}

/** The stylesheet of a domain with `theme_color` (validated as a colour by the schema: nothing else can be in it). */
export const themeStylesheet = (color: string) =>
  `/* theme_color of domains.csv */\n:root { --accent: ${color}; }\n`;
