import { resolvedTexts } from "../../web/i18n.ts";

/**
 * A sample of the data each template of a site folder gets (template-data.ts makes the real one; docs/site.md,
 * "The data", documents it): the shape the build checks the templates' variables against, and
 * the data of the one render per template that checks the overrides' rules (rules.ts), before
 * any page exists. Every value is present (no null), so that every branch that shows one is
 * taken. Its shape is template-data.ts's, value for value: test/site-folder/site-folder.unit.test.ts compares their
 * types (this module may not import template-data.ts, which the site folder's own module sits below).
 */

const ROOT = "../../";
const IMAGE = { src: `${ROOT}media/a1b2c3-480.jpeg`, width: 480, height: 640, alt: "Nosferatu" };

const WORK = {
  id: 5,
  title: "Nosferatu",
  url: `${ROOT}audiovisual-detail/5/nosferatu/`,
  year: 1922,
  duration: 94,
  category: { label: "Películas", url: `${ROOT}category/peliculas/` },
  director: { name: "F. W. Murnau", url: `${ROOT}director/f-w-murnau/` },
  cover: IMAGE,
  is_new: true,
  is_leaving: false,
  available_from: "2026-01-01",
  available_until: "2026-12-31",
};

/** The built-in part each template replaces (`content`), reduced to the landmarks it keeps. */
const CONTENT: Record<string, string> = {
  header: `<header class="site-header">\n<a class="brand" href="${ROOT}">Red de Bibliotecas del Norte</a>\n<nav aria-label="Categoría"><ul><li><a href="${ROOT}category/peliculas/">Películas</a></li></ul></nav>\n</header>`,
  footer: `<footer class="site-footer">\n<p class="library"><a href="https://bibliotecas-norte.example.org">Web de la biblioteca</a></p>\n</footer>`,
};
const KIND_CONTENT = "<h1>Catálogo</h1>\n<p>…</p>";

/** What every template gets (template-data.ts `baseData`). */
export function sampleBase(kind: string) {
  return {
    site: {
      name: "Red de Bibliotecas del Norte",
      domain: "bibliotecas-norte.example",
      base_url: "https://bibliotecas-norte.example",
      home: ROOT,
      home_url: "https://bibliotecas-norte.example.org",
      theme_color: "#1f4e79",
      logo: { ...IMAGE, alt: "Red de Bibliotecas del Norte" },
      assets: `${ROOT}assets/`,
    },
    page: {
      kind,
      url: "./",
      canonical: "https://bibliotecas-norte.example/audiovisual-detail/5/nosferatu/",
      title: "Sobre la red",
    },
    lang: "es",
    texts: resolvedTexts("es"),
    nav: {
      categories: [{ label: "Películas", url: `${ROOT}category/peliculas/`, current: false }],
      pages: [{ label: "Sobre la red", url: `${ROOT}about/`, current: false }],
      languages: [
        {
          label: "English",
          lang: "en",
          url: `${ROOT}en/audiovisual-detail/5/nosferatu/`,
          current: false,
        },
      ],
    },
    downloads: [
      {
        label: "Catálogo completo (xlsx)",
        url: `${ROOT}api/v1/videos/audiovisuals/export_excel/`,
        file: "export_excel-2026-11-20.xlsx",
      },
    ],
    feed: `${ROOT}feed.atom`,
  };
}

const LISTING = { ordering: "name" as const, category: "Películas", page: 2, pages: 7, count: 130 };

/** What a page kind adds to the common data (template-data.ts `kindData`), by kind. */
export const SAMPLE_ADDED = {
  listing: { listing: LISTING, works: [WORK] },
  work: { work: WORK },
  director: {
    director: { name: "F. W. Murnau", biography: "Director de cine alemán.", photo: IMAGE },
    works: [WORK],
  },
  browse: {
    browse: {
      shelf: "decade",
      decade: 1920,
      days: 30,
      page: 1,
      pages: 3,
      count: 48,
      decades: [{ decade: 1920, count: 48, url: `${ROOT}decade/1920/` }],
    },
    works: [WORK],
  },
};

const added = (part: string): object =>
  part === "home" || part === "listing" || part === "category"
    ? SAMPLE_ADDED.listing
    : part === "work" || part === "director" || part === "browse"
      ? SAMPLE_ADDED[part]
      : {};

/**
 * The sample data of a template: a part of `_includes/` (header, footer or a page kind, with its
 * built-in `content`), or with `part` null an own page's (the common data and its `title`).
 */
export function sampleData(part: string | null): Record<string, unknown> {
  if (part === null) return { ...sampleBase("own"), title: "Sobre la red" };
  return { ...sampleBase(part), ...added(part), content: CONTENT[part] ?? KIND_CONTENT };
}

/** The home link of the sample: the header must link it. */
export const SAMPLE_HOME = ROOT;
