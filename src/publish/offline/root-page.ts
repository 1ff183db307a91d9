import type { DomainInfo } from "../../output/build-info.ts";
import { html } from "../../web/html.ts";
import { localeTag, stringsFor } from "../../web/i18n.ts";

/**
 * The `index.html` at the root of an offline copy, where a reader opening the unpacked folder
 * starts. A copy of one library's catalogue leads straight to its home page (a refresh and a
 * link, for a browser that ignores refreshes); a copy of the whole network lists its libraries,
 * each linked to its home page. A domain built without its HTML catalogue (`--no-site`) is listed
 * without a link: it holds the API's files only.
 */

export const ROOT_PAGE = "index.html";

/** A domain's home page in the copy. */
export const homePage = (d: DomainInfo) => `${d.domain}${d.base_path}/index.html`;

export function rootPage(domains: readonly DomainInfo[]): string {
  const first = domains[0]!;
  const s = stringsFor(first.locale);
  const sites = domains.filter((d) => d.site);
  const only = domains.length === 1 && sites.length === 1 ? first : null;
  const title = only !== null ? first.name : s.catalogue;
  return html`<!doctype html>
<html lang="${s.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${only !== null ? html`<meta http-equiv="refresh" content="0; url=${homePage(only)}">\n` : ""}<title>${title}</title>
<link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}li{margin:.5rem 0}small{color:#555}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<ul>
${domains.map((d) => html`<li lang="${localeTag(d.locale)}">${d.site ? html`<a href="${homePage(d)}">${d.name}</a>` : d.name} <small>${d.domain}</small></li>\n`)}</ul>
</main>
</body>
</html>
`.value;
}
