import { API_PATH } from "../api/layout.ts";
import { newWorks } from "./shelves.ts";
import { titleIn } from "./titles.ts";
import type { DomainView } from "../model/domain-view.ts";
import { plannedWorkPage, type DomainSite } from "./model.ts";
import { pageDescription } from "./page-meta.ts";
import { absoluteUrl, FEED_FILE, workDir } from "../web/urls.ts";
import { escape } from "../web/xml.ts";

/**
 * The Atom feed (RFC 4287) of a domain's new works (`is_new`), newest `available_from` first
 * (works of the same day in the version's name order), in the language of the version's pages.
 *
 * Each language version of the site has its own feed (`{L}/feed.atom`), in its words.
 *
 * An entry's id is the work's API URL on the domain (one API for every version): it stays the same across builds (a title
 * or slug may change, the work's id does not), so readers never show a work twice. Its
 * `updated` is the day the work became available; the feed's is its newest entry's, or the
 * build date when nothing is new (the day the feed was found empty).
 */
export function atomFeed(site: DomainSite, view: DomainView): string {
  const { info, strings: s } = site;
  const entries = newWorks(view, s.code);
  const day = (date: string) => `${date}T00:00:00Z`;
  const updated = day(entries[0]?.window.from ?? view.date);
  const url = (dir: string) => absoluteUrl(info.base_url, dir);
  const text = (name: string, value: string) => `<${name}>${escape(value)}</${name}>`;
  const lines = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${s.lang}">`,
    text("title", s.feedTitle(info.name)),
    text("id", url(FEED_FILE)),
    `<link rel="self" type="application/atom+xml" href="${escape(url(FEED_FILE))}"/>`,
    `<link rel="alternate" type="text/html" href="${escape(url(""))}"/>`,
    text("updated", updated),
    `<author>${text("name", info.name)}</author>`,
    `<generator>catalogue</generator>`,
  ];
  for (const listed of entries) {
    const { work } = listed;
    lines.push(
      `<entry>`,
      text("title", titleIn(work, s.code)),
      `<link rel="alternate" type="text/html" href="${escape(url(workDir(work.id, work.slug)))}"/>`,
      text("id", `${site.main.base_url}${API_PATH}${work.id}/`),
      text("published", day(listed.window.from)),
      text("updated", day(listed.window.from)),
      ...(work.audiovisual_type !== null
        ? [
            `<category term="${work.audiovisual_type}" label="${escape(s.categories[work.audiovisual_type])}"/>`,
          ]
        : []),
      text("summary", pageDescription(plannedWorkPage(site, view.domain, listed))),
      `</entry>`,
    );
  }
  lines.push(`</feed>`);
  return lines.join("\n") + "\n";
}
