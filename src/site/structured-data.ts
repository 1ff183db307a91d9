import { PAGE_SIZE } from "../api/layout.ts";
import { browseLd } from "./work-facts.ts";
import { titleIn } from "./titles.ts";
import type { Ordering } from "../content/schema.ts";
import type { ListedWork } from "../model/domain-view.ts";
import type { SitePage } from "./model.ts";
import { biographySentence, pageImage, pageTrail, shelfTitle, synopsisLead } from "./page-meta.ts";
import { absoluteUrl, decadeDir, directorDir, workDir } from "../web/urls.ts";

/**
 * schema.org JSON-LD of a page: a work is a `Movie`, a director a `Person`, a listing or
 * category page an `ItemList` of its works, and pages with a trail a `BreadcrumbList`. Every
 * URL is absolute (on the domain's base_url). Every indexed page is also a `WebPage` (an
 * `ItemPage`, `ProfilePage` or `CollectionPage`) whose `inLanguage` is the language of its
 * interface, with the main node as its `mainEntity`. Only what the CSV says of the works: a
 * Movie's `inLanguage` is its audio languages and only when written (src/site/work-facts.ts), no
 * `dateCreated` without a year. A work's `description` is its synopsis's lead, as in the head; with the domain's
 * `watch_url`, its `potentialAction` is a `WatchAction` whose target is the work's address there.
 */

type Node = Record<string, unknown>;

export function structuredData(page: SitePage): Node | null {
  if (page.dir === null) return null;
  const main = mainNode(page);
  const url = absoluteUrl(page.site.info.base_url, page.dir);
  const webPage: Node = {
    "@type": PAGE_TYPE[page.kind],
    "@id": `${url}#page`,
    url,
    inLanguage: page.site.strings.lang,
    ...(main?.["@id"] !== undefined ? { mainEntity: { "@id": main["@id"] } } : {}),
  };
  const nodes = [webPage, main, breadcrumbs(page)].filter((n): n is Node => n !== null);
  return { "@context": "https://schema.org", "@graph": nodes };
}

const PAGE_TYPE: Record<SitePage["kind"], string> = {
  listing: "CollectionPage",
  category: "CollectionPage",
  browse: "CollectionPage",
  work: "ItemPage",
  director: "ProfilePage",
  "not-found": "WebPage",
  own: "WebPage",
};

/**
 * JSON for a `<script type="application/ld+json">` element: the HTML parser ends a script at
 * `</script` and treats `<!--` specially, whatever JSON quoting says, so `<`, `>` and `&` are
 * written as JSON escapes (the same string to any JSON parser). U+2028 and U+2029 are escaped
 * too, for the parsers that once read JSON as JavaScript, and U+FFFE and U+FFFF, which an HTML
 * page may not hold (JSON.stringify escapes the controls and lone surrogates itself).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029\uFFFE\uFFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function mainNode(page: SitePage): Node | null {
  const { site } = page;
  const url = (dir: string) => absoluteUrl(site.info.base_url, dir);
  const image = pageImage(page);
  switch (page.kind) {
    case "work": {
      const { work, director } = page.listed;
      const description = synopsisLead(page);
      return {
        "@type": "Movie",
        "@id": `${url(page.dir!)}#work`,
        name: titleIn(work, site.strings.code),
        url: url(page.dir!),
        ...(image !== null ? { image: imageObject(image) } : {}),
        ...(director !== null
          ? {
              director: {
                "@type": "Person",
                name: director.name,
                url: url(directorDir(director.slug)),
              },
            }
          : {}),
        ...(work.year !== null ? { dateCreated: String(work.year) } : {}),
        ...(work.duration !== null ? { duration: `PT${work.duration}M` } : {}),
        ...(work.audiovisual_type !== null
          ? { genre: site.strings.categories[work.audiovisual_type] }
          : {}),
        ...browseLd(work, site.strings, site.versions[0]?.lang ?? site.strings.lang),
        ...(description !== null ? { description } : {}),
        // Where the library's platform lends or streams it (the domain's watch_url).
        ...(page.watch !== null
          ? {
              potentialAction: {
                "@type": "WatchAction",
                target: { "@type": "EntryPoint", urlTemplate: page.watch },
              },
            }
          : {}),
      };
    }
    case "director": {
      const description = biographySentence(page.director, site);
      return {
        "@type": "Person",
        "@id": `${url(page.dir!)}#person`,
        name: page.director.name,
        url: url(page.dir!),
        ...(image !== null ? { image: imageObject(image) } : {}),
        ...(description !== null ? { description } : {}),
      };
    }
    case "listing":
    case "category":
    case "browse": {
      const name =
        page.kind === "category"
          ? site.strings.categories[page.type]
          : page.kind === "browse"
            ? shelfTitle(page)
            : site.info.name;
      const order =
        page.kind === "listing"
          ? page.ordering
          : page.kind === "browse" && page.shelf === "new"
            ? "-name"
            : "name";
      return {
        "@type": "ItemList",
        "@id": `${url(page.dir!)}#list`,
        name,
        url: url(page.dir!),
        numberOfItems: page.count,
        itemListOrder: `https://schema.org/${ORDER[order]}`,
        itemListElement:
          page.kind === "browse" && page.shelf === "decades"
            ? page.decades.map(({ decade }, i) => ({
                "@type": "ListItem",
                position: i + 1,
                name: site.strings.format("browse.decade", { decade: String(decade) }),
                url: url(decadeDir(decade, 1)),
              }))
            : page.works.map((listed: ListedWork, i) => ({
                "@type": "ListItem",
                position: (page.page - 1) * PAGE_SIZE + i + 1,
                name: titleIn(listed.work, site.strings.code),
                url: url(workDir(listed.work.id, listed.work.slug)),
              })),
      };
    }
    case "not-found":
    case "own":
      return null;
  }
}

const ORDER: Record<Ordering, string> = {
  name: "ItemListOrderAscending",
  year: "ItemListOrderAscending",
  "-name": "ItemListOrderDescending",
  "-year": "ItemListOrderDescending",
};

const imageObject = (image: { url: string; width: number; height: number }) => ({
  "@type": "ImageObject",
  contentUrl: image.url,
  url: image.url,
  width: image.width,
  height: image.height,
});

function breadcrumbs(page: SitePage): Node | null {
  const trail = pageTrail(page);
  if (trail.length === 0) return null;
  return {
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: crumb.name,
      item: absoluteUrl(page.site.info.base_url, crumb.dir),
    })),
  };
}
