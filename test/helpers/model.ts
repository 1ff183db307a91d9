import type { Catalogue, Window } from "../../src/content/load.ts";
import type { Audiovisual, Director, Domain } from "../../src/content/schema.ts";

export const DOMAIN: Domain = {
  domain: "uno.example",
  name: "Uno",
  base_url: "https://uno.example",
  media_url: "https://uno.example/media",
  locale: "es",
  default_ordering: "name",
  new_days: 30,
  export_window_days: 30,
};

export function director(id: number, extra: Partial<Director> = {}): Director {
  return {
    id,
    name: `Director ${id}`,
    slug: `director-${id}`,
    photo: null,
    show_img: false,
    description: null,
    description_es: `Bio ${id}`,
    description_en: `Bio en ${id}`,
    description_ca: null,
    description_gl: null,
    description_eu: null,
    description_va: null,
    description_fr: null,
    ...extra,
  };
}

export function work(id: number, extra: Partial<Audiovisual> = {}): Audiovisual {
  return {
    id,
    name: `Obra ${String(id).padStart(4, "0")}`,
    slug: `obra-${id}`,
    audiovisual_type: "peliculas",
    director_id: null,
    year: 1900 + (id % 50),
    duration: 90,
    cover: "covers/a.png",
    status_global: 1,
    ...extra,
  };
}

/** An in-memory catalogue of one domain where every work has the given window (default: open since 2020). */
export function catalogueOf(
  works: Audiovisual[],
  options: { domain?: Domain; directors?: Director[]; windows?: Map<number, Window> } = {},
): Catalogue {
  const domain = options.domain ?? DOMAIN;
  const windows =
    options.windows ?? new Map(works.map((w) => [w.id, { from: "2020-01-01", until: null }]));
  return {
    domains: [domain],
    directors: new Map((options.directors ?? []).map((d) => [d.id, d])),
    works,
    windows: new Map([[domain.domain, windows]]),
    images: new Map(),
  };
}
