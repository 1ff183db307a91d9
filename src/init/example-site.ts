import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The small commented `site/` that `catalogue init` writes beside content/: the library's own
 * look (docs/site.md, "Your own look"). Every file says what it does and how to go further; the
 * header template is written as `header.liquid.example`, so the built-in header stays until the
 * library renames it.
 */
export const EXAMPLE_SITE: Record<string, string> = {
  "pages/about.md": `---
# An own page: site/pages/about.md is built at /about/ for every domain.
# title is required; nav places the page in the header's navigation (1 first).
title: About the network
nav: 1
description: Opening hours, membership and how to borrow films from the network's libraries.
---
Every library of the network lends the films of this catalogue with your library card.

## Opening hours

Monday to Friday, 9:00 to 20:00. Saturdays, 10:00 to 14:00.

## How to borrow

Ask at the desk of any library of the network, or watch online with your card number.
`,
  "pages/ca/about.md": `---
# The same page in Catalan: a domain (or a language version) in Catalan shows this one.
title: Sobre la xarxa
nav: 1
description: Horaris, carnet i com agafar en préstec les pel·lícules de les biblioteques de la xarxa.
---
Totes les biblioteques de la xarxa presten les pel·lícules d'aquest catàleg amb el teu carnet.

## Horari

De dilluns a divendres, de 9:00 a 20:00. Dissabtes, de 10:00 a 14:00.

## Com agafar en préstec

Pregunta al taulell de qualsevol biblioteca de la xarxa, o mira-les en línia amb el teu número de carnet.
`,
  "pages/es/about.md": `---
# The same page in Spanish: a domain (or a language version) in Spanish shows this one.
title: Sobre la red
nav: 1
description: Horarios, carné y cómo tomar en préstamo las películas de las bibliotecas de la red.
---
Todas las bibliotecas de la red prestan las películas de este catálogo con tu carné.

## Horario

De lunes a viernes, de 9:00 a 20:00. Sábados, de 10:00 a 14:00.

## Cómo tomar en préstamo

Pregunta en el mostrador de cualquier biblioteca de la red, o míralas en línea con tu número de carné.
`,
  "assets/site.css": `/*
 * The library's stylesheet, linked after the catalogue's own on every page. The default
 * stylesheet's custom properties are the theming interface: set them here.
 *   --ink, --muted: text colours; --paper: the background; --line: rules and borders;
 *   --accent: links, buttons and focus rings (domains.csv theme_color sets it per domain);
 *   --accent-ink: text on the accent; --font: the text's font; --measure: the page's width.
 * Anything in site/assets/ is copied into every site's assets/ folder (a file named like one of
 * the catalogue's replaces it). Keep text and links readable: 4.5:1 contrast at least.
 */
:root {
  --accent: #1d4f73;
}
`,
  "i18n/ca.json": `{
  "empty": "Encara no hi ha cap pel·lícula disponible en aquesta biblioteca."
}
`,
  // JSON has no comments: the sources a library adds to its pages' policy, inert until renamed
  // to content-security.json (docs/site.md, "Content security policy").
  "content-security.json.example": `{
  "frame-src": ["https://www.youtube-nocookie.com"],
  "script-src": ["https://stats.example.org"],
  "connect-src": ["https://stats.example.org"]
}
`,
  "_includes/header.liquid.example": `{% comment %}
  Rename this file to header.liquid to replace the header of every page (footer.liquid the
  footer; home, listing, work, director, category, not-found a page kind's content), in Liquid.
  Everything you print is escaped; {{ content | raw }} is the built-in part.
  The data (site, page, lang, texts, nav, downloads, feed) is listed in the catalogue's
  docs/site.md, "Your own look".
{% endcomment %}<header class="site-header">
<a class="brand" href="{{ site.home }}">{% if site.logo %}<img src="{{ site.logo.src }}" alt="{{ site.name }}" width="{{ site.logo.width }}" height="{{ site.logo.height }}">{% else %}{{ site.name }}{% endif %}</a>
<nav aria-label="{{ texts.pagesNav }}"><ul>
{% for link in nav.pages %}<li><a href="{{ link.url }}"{% if link.current %} aria-current="page"{% endif %}>{{ link.label }}</a></li>{% endfor %}
{% for link in nav.categories %}<li><a href="{{ link.url }}"{% if link.current %} aria-current="page"{% endif %}>{{ link.label }}</a></li>{% endfor %}
</ul></nav>
</header>
`,
};

/**
 * Writes the example into `projectDir`/site unless a site folder is there already (never
 * overwritten); made beside it and renamed into place. Returns its path, or null when kept.
 */
export async function initSite(projectDir: string): Promise<string | null> {
  const site = path.join(projectDir, "site");
  if (existsSync(site)) return null;
  const staging = path.join(projectDir, `.site-init-${process.pid}.tmp`);
  try {
    for (const [rel, text] of Object.entries(EXAMPLE_SITE)) {
      const file = path.join(staging, rel);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
    }
    await rename(staging, site);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return site;
}
