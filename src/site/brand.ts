import type { ImageSource } from "../content/source-images.ts";
import { processImages, type ProcessedImage } from "../media/processed-images.ts";
import { html, type Html } from "../web/html.ts";
import { SITE_IMAGE_WIDTHS, type Variants } from "./image-variants.ts";
import type { DomainSite } from "./model.ts";
import type { PageContext } from "./templates/context.ts";
import { ASSETS_DIR } from "../web/urls.ts";
import { SITE_CSS } from "./folder/folder.ts";

/**
 * A domain's brand in every page's head: the favicon (a square made of the logo, else the
 * package's drawn one), the theme colour (`<meta name="theme-color">` and the accent of the
 * default stylesheet, set by a stylesheet of the site, not an inline style: the pages' content
 * security policy allows no inline style), and the library's own stylesheet after the default.
 */

/** The per-site stylesheet that sets the accent from `theme_color`. */
export const THEME_CSS = "theme.css";
export const FAVICON = "favicon.svg";

/** The pages' ground, `--paper` of the default stylesheet (assets/style.css), under a logo's JPEGs. */
export const PAPER = "#fbfaf7";
/** The favicon's side in pixels: sharp on high-density screens, which show 16 or 32 points. */
const FAVICON_SIZE = 64;

/** A logo's images: WebP with its transparency, JPEG on the paper colour, and its favicon. */
export type LogoVariants = Variants & { icon: ProcessedImage };

/**
 * Processes a logo. A logo is often a PNG with a transparent ground: the WebP variants keep it;
 * the JPEG ones (the fallback in the header, the link previews' `og:image`) have none and are
 * flattened onto the paper colour, where a plain conversion turned the ground black; the favicon
 * is a PNG square with the logo centred on a transparent ground, since browsers squeeze a wide
 * icon into a square.
 */
export async function logoImages(source: ImageSource, cacheDir: string): Promise<LogoVariants> {
  const one = async (request: Parameters<typeof processImages>[1]) =>
    (await processImages([source], request, cacheDir)).get(source.rel)!;
  const webp = (await one({ widths: SITE_IMAGE_WIDTHS, formats: ["webp"] })).webp!;
  const jpeg = (await one({ widths: SITE_IMAGE_WIDTHS, formats: ["jpeg"], flatten: PAPER })).jpeg!;
  const icon = (await one({ widths: [FAVICON_SIZE], formats: ["png"], square: true })).png![0]!;
  return { webp, jpeg, icon };
}

export function favicon(site: DomainSite, ctx: PageContext): Html {
  const logo = site.brand.logo === undefined ? undefined : site.images.get(site.brand.logo);
  const icon = (logo as Partial<LogoVariants> | undefined)?.icon;
  if (icon !== undefined)
    return html`<link rel="icon" href="${ctx.media}${icon.file}" type="image/png" sizes="${icon.width}x${icon.height}">\n`;
  return html`<link rel="icon" href="${ctx.root}${ASSETS_DIR}${FAVICON}" type="image/svg+xml">\n`;
}

export function brandHead(site: DomainSite, root: string): Html {
  const color = site.brand.theme_color;
  return html`${color !== undefined ? html`<meta name="theme-color" content="${color}">\n<link rel="stylesheet" href="${root}${ASSETS_DIR}${THEME_CSS}">\n` : ""}${site.siteFolder.hasStylesheet ? html`<link rel="stylesheet" href="${root}${ASSETS_DIR}${SITE_CSS}">\n` : ""}`;
}

/** The stylesheet of a domain with `theme_color` (validated as a colour by the schema: nothing else can be in it). */
export const themeStylesheet = (color: string) =>
  `/* theme_color of domains.csv */\n:root { --accent: ${color}; }\n`;
