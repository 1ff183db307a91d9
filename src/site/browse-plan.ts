import { LEAVING_DAYS } from "../content/domain-row.ts";
import type { DomainView } from "../model/domain-view.ts";
import { decadeDir, decadesDir, shelfDir } from "../web/urls.ts";
import { decadeShelves, leavingWorks, newWorks } from "./shelves.ts";
import { paginate, type DomainSite, type SitePage } from "./site-page.ts";

/** The browse pages: the decades' index, each decade, the new works and the leaving ones. */
export function* browsePages(site: DomainSite, view: DomainView): Generator<SitePage> {
  const shelf = {
    kind: "browse" as const,
    site,
    decade: null,
    days: null,
    decades: [] as { decade: number; count: number }[],
  };
  const language = site.strings.code;
  const decades = decadeShelves(view, language);
  yield {
    ...shelf,
    shelf: "decades",
    dir: decadesDir(),
    page: 1,
    pages: 1,
    count: view.orders.name.length,
    works: [],
    decades: decades.map(({ decade, works }) => ({ decade, count: works.length })),
  };
  for (const { decade, works } of decades)
    yield* paginate(works, (slice, page, pages) => ({
      ...shelf,
      shelf: "decade",
      decade,
      dir: decadeDir(decade, page),
      page,
      pages,
      count: works.length,
      works: slice,
    }));
  // New and leaving always have a page, empty or not: links and bookmarks to them keep working.
  const shelves = [
    ["new", newWorks(view, language), view.domain.new_days],
    ["leaving", leavingWorks(view, language), view.domain.leaving_days ?? LEAVING_DAYS],
  ] as const;
  for (const [name, works, days] of shelves)
    yield* paginate(
      works,
      (slice, page, pages) => ({
        ...shelf,
        shelf: name,
        days,
        dir: shelfDir(name, page),
        page,
        pages,
        count: works.length,
        works: slice,
      }),
      true,
    );
}
