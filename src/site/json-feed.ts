import { API_PATH } from "../api/layout.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import { absoluteUrl, JSON_FEED_FILE, workDir } from "../web/urls.ts";
import type { DomainSite } from "./model.ts";
import { leavingWorks, newWorks } from "./shelves.ts";
import { titleIn } from "./titles.ts";

/** At most this many new works and this many leaving ones: enough for any shelf, small to embed. */
export const SHELF_WORKS = 50;

/** The texts a shelf shows, in the feed's language. */
export interface ShelfTexts {
  title: string;
  new: string;
  leaving: string;
  more: string;
}

/**
 * A JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of a version's new works (newest
 * `available_from` first) and leaving ones (soonest `available_until` first), a work in both once,
 * titles in the version's language. `<catalogue-shelf>` (assets/shelf.js) reads it from other
 * sites' pages; its `_catalogue` extensions (JSON Feed's rule: `_`-prefixed) carry what a shelf
 * shows besides the standard fields: its texts, every version's feed (relative to this one), each cover's variants.
 * An item's `id` is the work's API URL, as in the Atom feed: the same across builds.
 */
export function jsonFeed(site: DomainSite, view: DomainView): string {
  const { info, strings } = site;
  const texts: ShelfTexts = {
    title: strings.format("feed.shelfTitle", { library: info.name }),
    new: strings.format("browse.new"),
    leaving: strings.format("browse.leaving"),
    more: strings.format("shelf.more"),
  };
  const url = (dir: string) => absoluteUrl(info.base_url, dir);
  // Absolute: a shelf shows the covers on other hosts' pages.
  const media = `${info.media_url}/`;
  const newest = newWorks(view, strings.code).slice(0, SHELF_WORKS);
  const leaving = leavingWorks(view, strings.code).slice(0, SHELF_WORKS);
  const items = [...new Set([...newest, ...leaving])].map((listed) => item(listed));
  const feed = {
    version: "https://jsonfeed.org/version/1.1",
    title: texts.title,
    home_page_url: url(""),
    feed_url: url(JSON_FEED_FILE),
    language: strings.lang,
    _catalogue: {
      texts: { new: texts.new, leaving: texts.leaving, more: texts.more },
      // Relative to this feed: a shelf reading the catalogue on another host (a staging copy)
      // stays on it when it switches to the version in its page's language.
      versions: Object.fromEntries(
        site.versions.map((version) => [
          version.lang,
          `${"../".repeat(site.prefix.split("/").length - 1)}${version.prefix}${JSON_FEED_FILE}`,
        ]),
      ),
    },
    items,
  };
  return JSON.stringify(feed, null, 1) + "\n";

  function item(listed: ListedWork) {
    const { work, window } = listed;
    const variants = site.images.get(work.cover);
    const largest = variants?.jpeg.at(-1);
    const fallback = variants?.jpeg.find((i) => i.width >= 480) ?? largest;
    const set = (list: { file: string; width: number }[]) =>
      list.map((i) => `${media}${i.file} ${i.width}w`).join(", ");
    return {
      id: `${site.main.base_url}${API_PATH}${work.id}/`,
      url: url(workDir(work.id, work.slug)),
      title: titleIn(work, strings.lang),
      ...(fallback !== undefined ? { image: media + fallback.file } : {}),
      date_published: `${window.from}T00:00:00Z`,
      tags: [...(listed.isNew ? ["new"] : []), ...(listed.isLeaving ? ["leaving"] : [])],
      _catalogue: {
        new: listed.isNew,
        leaving: listed.isLeaving,
        available_until: window.until,
        ...(variants !== undefined && largest !== undefined
          ? {
              cover: {
                webp: set(variants.webp),
                jpeg: set(variants.jpeg),
                width: largest.width,
                height: largest.height,
              },
            }
          : {}),
      },
    };
  }
}
