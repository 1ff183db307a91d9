import { flatten } from "../../web/html.ts";
import { browsePage } from "./browse.ts";
import type { SitePage } from "../model.ts";
import { categoryPage } from "./category.ts";
import { pageContext } from "./context.ts";
import { directorPage } from "./director.ts";
import { listingPage } from "./listing.ts";
import { notFoundPage } from "./not-found.ts";
import { ownPage } from "./own.ts";
import { workPage } from "./work.ts";

/** Renders one page of the site to its HTML (the Eleventy template's render function), as one flat string. */
export function renderPage(page: SitePage): string {
  return flatten(pageHtml(page));
}

function pageHtml(page: SitePage): string {
  const ctx = pageContext(page);
  switch (page.kind) {
    case "listing":
      return listingPage(page, ctx);
    case "work":
      return workPage(page, ctx);
    case "director":
      return directorPage(page, ctx);
    case "category":
      return categoryPage(page, ctx);
    case "browse":
      return browsePage(page, ctx);
    case "not-found":
      return notFoundPage(page, ctx);
    case "own":
      return ownPage(page, ctx);
  }
}
