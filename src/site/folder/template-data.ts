import { EXPORT_KINDS } from "../../api/layout.ts";
import { titleIn } from "../titles.ts";
import { AUDIOVISUAL_TYPES } from "../../content/schema.ts";
import type { ListedWork } from "../../model/domain-view.ts";
import { biography } from "../biography.ts";
import type { Variants } from "../image-variants.ts";
import type { SitePage } from "../model.ts";
import type { PageContext } from "../templates/context.ts";
import {
  absoluteUrl,
  categoryDir,
  decadeDir,
  directorDir,
  exportDir,
  FEED_FILE,
  link,
  workDir,
} from "../../web/urls.ts";
import { textsWithOverrides } from "./texts.ts";

/**
 * The data a library's templates receive (docs/site.md, "Your own look", lists it with an example
 * per page kind). Plain values, every URL ready to use from the page (relative, so the site works
 * under any base path and from file://). Text from the CSVs is given as it is: the engines escape
 * it on output.
 */

export interface Link {
  label: string;
  url: string;
  current: boolean;
}

export interface ImageData {
  src: string;
  width: number;
  height: number;
  alt: string;
}

/** What every template gets: the library, the page, the language, the texts, the navigation. */
export function baseData(page: SitePage, ctx: PageContext) {
  const { site } = page;
  const s = site.strings;
  const logo = site.brand.logo === undefined ? undefined : site.images.get(site.brand.logo);
  return {
    site: {
      name: site.info.name,
      domain: site.info.domain,
      base_url: site.info.base_url,
      home: link(ctx.root, ""),
      home_url: site.brand.home_url ?? null,
      theme_color: site.brand.theme_color ?? null,
      logo: logo === undefined ? null : image(logo, ctx, site.info.name, 0),
      assets: `${ctx.root}assets/`,
    },
    page: {
      kind: kindOf(page),
      url: page.dir === null ? null : link(ctx.root, page.dir),
      canonical: page.dir === null ? null : absoluteUrl(site.info.base_url, page.dir),
      title: "title" in page ? page.title : null,
    },
    lang: s.lang,
    texts: textsWithOverrides(site.siteFolder, s.code),
    nav: {
      categories: AUDIOVISUAL_TYPES.filter((t) => site.categories.has(t)).map((t) => ({
        label: s.categories[t],
        url: link(ctx.root, categoryDir(t, 1)),
        current: page.kind === "category" && page.type === t,
      })),
      pages: site.nav.map((p) => ({
        label: p.title,
        url: link(ctx.root, p.dir),
        current: page.dir === p.dir,
      })),
      languages: site.versions.map((v) => ({
        label: v.label,
        lang: v.lang,
        url:
          page.dir === null
            ? `${site.main.base_path}/${v.prefix}`
            : link(ctx.main + v.prefix, page.dir),
        current: v.prefix === site.prefix,
      })),
    },
    downloads: [
      ...EXPORT_KINDS.map((kind) => ({
        label: s.exports[kind],
        url: `${ctx.main}${exportDir(kind)}`,
        file: site.info.exports[kind] ?? "",
      })),
    ],
    feed: `${ctx.root}${FEED_FILE}`,
  };
}

/** The data of a page kind's template: the base, the page's own facts and its works. */
export function kindData(page: SitePage, ctx: PageContext) {
  const base = baseData(page, ctx);
  const works = (list: ListedWork[]) => list.map((listed) => workData(page, ctx, listed));
  switch (page.kind) {
    case "listing":
    case "category":
      return {
        ...base,
        listing: {
          ordering: page.kind === "listing" ? page.ordering : "name",
          category: page.kind === "category" ? page.site.strings.categories[page.type] : null,
          page: page.page,
          pages: page.pages,
          count: page.count,
        },
        works: works(page.works),
      };
    case "work":
      return { ...base, work: workData(page, ctx, page.listed) };
    case "director": {
      const bio = biography(page.director, page.site.strings.code);
      const photo =
        page.director.show_img && page.director.photo !== null
          ? page.site.images.get(page.director.photo)
          : undefined;
      return {
        ...base,
        director: {
          name: page.director.name,
          biography: bio?.text ?? null,
          photo:
            photo === undefined
              ? null
              : image(photo, ctx, page.site.strings.photo(page.director.name), -1),
        },
        works: works(page.works),
      };
    }
    case "browse":
      return {
        ...base,
        browse: {
          shelf: page.shelf,
          decade: page.decade,
          days: page.days,
          page: page.page,
          pages: page.pages,
          count: page.count,
          decades: page.decades.map(({ decade, count }) => ({
            decade,
            count,
            url: link(ctx.root, decadeDir(decade, 1)),
          })),
        },
        works: works(page.works),
      };
    default:
      return base;
  }
}

function workData(page: SitePage, ctx: PageContext, listed: ListedWork) {
  const { work, director, window } = listed;
  const s = page.site.strings;
  const cover = page.site.images.get(work.cover);
  return {
    id: work.id,
    title: titleIn(work, s.code),
    url: link(ctx.root, workDir(work.id, work.slug)),
    year: work.year,
    duration: work.duration,
    category:
      work.audiovisual_type === null
        ? null
        : {
            label: s.categories[work.audiovisual_type],
            url: link(ctx.root, categoryDir(work.audiovisual_type, 1)),
          },
    director:
      director === null
        ? null
        : { name: director.name, url: link(ctx.root, directorDir(director.slug)) },
    cover: cover === undefined ? null : image(cover, ctx, s.cover(titleIn(work, s.code)), -1),
    is_new: listed.isNew,
    is_leaving: listed.isLeaving,
    available_from: window.from,
    available_until: window.until,
  };
}

/** One JPEG variant of an image (0: the smallest, -1: the largest) as templates show it. */
function image(v: Variants, ctx: PageContext, alt: string, at: number): ImageData {
  const jpeg = v.jpeg.at(at)!;
  return { src: `${ctx.media}${jpeg.file}`, width: jpeg.width, height: jpeg.height, alt };
}

/** The page kind a template replaces: the home page is the listing's first page in the default ordering. */
export function kindOf(page: SitePage): string {
  if (page.kind === "listing" && page.page === 1 && page.ordering === page.site.defaultOrdering)
    return "home";
  return page.kind;
}
