import type { SitePage } from "../model.ts";

/** How a page reaches the site root and the media folder. */
export interface PageContext {
  /** Prefix of links to pages of the site: "", "../../", or "/base/" on the 404 page. */
  root: string;
  /** Prefix of image files: relative when the media share the host, else the absolute media URL. */
  media: string;
  /**
   * Prefix of links to the locale's version of the site, whose root holds the API and the
   * spreadsheets every version links to, and the other versions' folders: `root` on its own
   * pages, one level up on another language's (`{L}/`).
   */
  main: string;
}

export function pageContext(page: SitePage): PageContext {
  const { site } = page;
  if (page.dir === null) {
    // The 404 page answers at any depth: only root-relative links work there.
    const root = `${site.info.base_path}/`;
    const media =
      "relative" in site.media
        ? `/${site.info.media_folder.slice(site.info.domain.length + 1)}/`
        : site.media.absolute;
    return { root, media, main: `${site.main.base_path}/` };
  }
  const root = "../".repeat(page.dir.split("/").length - 1);
  const main = site.prefix === "" ? root : `${root}../`;
  return {
    root,
    media: "relative" in site.media ? root + site.media.relative : site.media.absolute,
    main,
  };
}
