import { z } from "zod";

/**
 * The brand columns of domains.csv (`logo`, `home_url`, `theme_color`; the site shows them:
 * src/site/brand.ts), beside the schema that declares them.
 */

/**
 * A CSS colour written to a stylesheet and a meta tag: a hex colour, a colour function of numbers
 * (rgb, hsl, hwb, lab, lch, oklab, oklch) or a keyword of letters. Nothing that could end the
 * declaration (no ";", "}", quotes or "<").
 */
export const cssColor = () =>
  z
    .string({ error: "a value is required" })
    .transform((text) => text.trim().toLowerCase())
    .refine(
      (text) =>
        /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(text) ||
        /^(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([0-9a-z.%+\-\s,/]*\)$/.test(text) ||
        /^[a-z]{3,20}$/.test(text),
      {
        error: (iss) =>
          `expected a CSS colour like "#7a1f3d", "rgb(122 31 61)" or "darkred", got ${JSON.stringify(iss.input)}`,
      },
    );

/**
 * A library's brand (src/site/brand.ts): absent from a domain without these columns, so
 * its description, and every key made of it, is what it was before they existed.
 */
export interface DomainBrand {
  /** An image inside the content folder: the header, the favicon, the link previews' fallback. */
  logo?: string;
  /** The library's own website. */
  home_url?: string;
  /** A CSS colour: `<meta name="theme-color">` and the accent of the default stylesheet. */
  theme_color?: string;
}

export function brandOf(row: {
  logo: string | null;
  home_url: string | null;
  theme_color: string | null;
}): DomainBrand {
  return Object.fromEntries(
    Object.entries({ logo: row.logo, home_url: row.home_url, theme_color: row.theme_color }).filter(
      ([, v]) => v !== null,
    ),
  );
}
