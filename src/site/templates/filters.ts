import { html, type Html } from "../../web/html.ts";
import type { Ordering } from "../../content/schema.ts";
import { ASSETS_DIR, workDir } from "../../web/urls.ts";
import { BROWSE_DIR } from "../browse-index.ts";
import type { SitePage } from "../model.ts";

/**
 * The filter panel with the search box (src/site/assets/browse.js draws its facets and results). All of it stays hidden without JavaScript, where the static listing, its pager
 * and its orderings are the way through the catalogue. The facets' texts come with the index
 * (browse/labels.js); the page carries only what is shown before it loads.
 */
export function filterPanel(page: SitePage): Html {
  const s = page.site.strings;
  const t = (key: string) => s.format(key);
  return html`<section class="browse" aria-labelledby="filters-title" data-browse-panel data-failed="${t("filters.failed")}" hidden>
<h2 id="filters-title">${t("filters.title")}</h2>
<form id="filters" class="filters" role="search" data-filters>
<label for="q">${s.searchLabel}</label>
<div class="search-row"><input type="search" id="q" name="q" autocomplete="off"><button type="submit">${s.searchButton}</button></div>
<button type="button" class="filters-open" aria-expanded="false" aria-controls="facets" data-filters-open>${t("filters.open")}</button>
<div id="facets" class="facets" data-facets hidden></div>
<button type="button" data-clear hidden>${t("filters.clear")}</button>
</form>
<p role="status" aria-live="polite" class="results-count" data-live></p>
</section>`;
}

/** Where the panel's results go, in place of the static grid (hidden until a state is applied). */
export function filterResults(page: SitePage): Html {
  return html`<section class="results" aria-labelledby="results-title" data-results hidden>
<h2 id="results-title" tabindex="-1">${page.site.strings.format("filters.results")}</h2>
<div data-results-body></div>
</section>`;
}

/** The panel's script, with where the index, the site root and the media are from the page. */
export function filterScript(ctx: { root: string; media: string }, ordering: Ordering): Html {
  return html`<script src="${ctx.root}${ASSETS_DIR}browse.js" data-browse="${ctx.root}${BROWSE_DIR}" data-root="${ctx.root}" data-media="${ctx.media}" data-work="${workDir(0, "{slug}").replace("/0/", "/{id}/")}" data-ordering="${ordering}" defer></script>`;
}
