import type { AudiovisualType, Ordering } from "../content/schema.ts";

/**
 * Interface text. Spanish is the default; a domain whose locale starts with `en` gets English.
 * Other locales (ca, gl, …) keep the Spanish interface; their biographies still come in their
 * own language when the CSV has it (see biography.ts).
 */
export interface Strings {
  lang: "es" | "en";
  skip: string;
  catalogue: string;
  works: (count: number) => string;
  orderBy: string;
  orderings: Record<Ordering, string>;
  pagination: string;
  previous: string;
  next: string;
  pageOf: (page: number, total: number) => string;
  searchLabel: string;
  searchButton: string;
  searchNone: string;
  searchCount: (count: number) => string;
  empty: string;
  isNew: string;
  director: string;
  category: string;
  year: string;
  duration: string;
  minutes: (n: number) => string;
  availableFrom: string;
  availableUntil: string;
  noEnd: string;
  json: string;
  about: (name: string) => string;
  worksOf: string;
  cover: (title: string) => string;
  photo: (name: string) => string;
  downloads: string;
  exports: Record<"export_excel" | "export_up_movies" | "export_down_movies", string>;
  categories: Record<AudiovisualType, string>;
  notFound: string;
  notFoundText: string;
  backHome: string;
  /** Label of the breadcrumb trail. */
  breadcrumb: string;
  /** The Atom feed of new works: its title, and the footer's link to it. */
  feedTitle: (library: string) => string;
  feedLink: string;
  /** Meta descriptions (src/site/describe.ts). */
  describeListing: (library: string, count: number, ordering: string) => string;
  describeCategory: (label: string, library: string, count: number) => string;
  describeDirector: (name: string, library: string, count: number) => string;
}

const es: Strings = {
  lang: "es",
  skip: "Saltar al contenido",
  catalogue: "Catálogo",
  works: (n) => (n === 1 ? "1 obra" : `${n.toLocaleString("es")} obras`),
  orderBy: "Ordenar por",
  orderings: { name: "Título (A-Z)", "-name": "Título (Z-A)", year: "Año (antiguas primero)", "-year": "Año (recientes primero)" },
  pagination: "Páginas",
  previous: "Anterior",
  next: "Siguiente",
  pageOf: (p, t) => `Página ${p} de ${t}`,
  searchLabel: "Buscar por título o director",
  searchButton: "Buscar",
  searchNone: "No se ha encontrado ninguna obra.",
  searchCount: (n) => (n === 1 ? "1 resultado" : `${n} resultados`),
  empty: "No hay obras disponibles.",
  isNew: "Novedad",
  director: "Dirección",
  category: "Categoría",
  year: "Año",
  duration: "Duración",
  minutes: (n) => `${n} min`,
  availableFrom: "Disponible desde",
  availableUntil: "Disponible hasta",
  noEnd: "sin fecha de fin",
  json: "Datos en JSON",
  about: (name) => `Sobre ${name}`,
  worksOf: "Obras en el catálogo",
  cover: (title) => `Carátula de ${title}`,
  photo: (name) => `Fotografía de ${name}`,
  downloads: "Descargas",
  exports: { export_excel: "Catálogo completo (xlsx)", export_up_movies: "Altas recientes (xlsx)", export_down_movies: "Bajas recientes (xlsx)" },
  categories: { peliculas: "Películas", documentales: "Documentales", cortometrajes: "Cortometrajes", "artes-escenicas": "Artes escénicas" },
  notFound: "Página no encontrada",
  notFoundText: "La página que busca no existe o ya no está disponible.",
  backHome: "Volver al catálogo",
  breadcrumb: "Ruta de navegación",
  feedTitle: (library) => `Novedades · ${library}`,
  feedLink: "Novedades (Atom)",
  describeListing: (library, n, ordering) => `Catálogo de ${library}: ${es.works(n)}, orden: ${ordering}.`,
  describeCategory: (label, library, n) => `${label} en el catálogo de ${library}: ${es.works(n)}.`,
  describeDirector: (name, library, n) => `${name}: ${es.works(n)} en el catálogo de ${library}.`,
};

const en: Strings = {
  lang: "en",
  skip: "Skip to content",
  catalogue: "Catalogue",
  works: (n) => (n === 1 ? "1 work" : `${n.toLocaleString("en")} works`),
  orderBy: "Sort by",
  orderings: { name: "Title (A-Z)", "-name": "Title (Z-A)", year: "Year (oldest first)", "-year": "Year (newest first)" },
  pagination: "Pages",
  previous: "Previous",
  next: "Next",
  pageOf: (p, t) => `Page ${p} of ${t}`,
  searchLabel: "Search by title or director",
  searchButton: "Search",
  searchNone: "No work found.",
  searchCount: (n) => (n === 1 ? "1 result" : `${n} results`),
  empty: "No works available.",
  isNew: "New",
  director: "Director",
  category: "Category",
  year: "Year",
  duration: "Running time",
  minutes: (n) => `${n} min`,
  availableFrom: "Available from",
  availableUntil: "Available until",
  noEnd: "no end date",
  json: "Data as JSON",
  about: (name) => `About ${name}`,
  worksOf: "Works in the catalogue",
  cover: (title) => `Cover of ${title}`,
  photo: (name) => `Photograph of ${name}`,
  downloads: "Downloads",
  exports: { export_excel: "Full catalogue (xlsx)", export_up_movies: "Recently added (xlsx)", export_down_movies: "Recently withdrawn (xlsx)" },
  categories: { peliculas: "Feature films", documentales: "Documentaries", cortometrajes: "Short films", "artes-escenicas": "Performing arts" },
  notFound: "Page not found",
  notFoundText: "The page you are looking for does not exist or is no longer available.",
  backHome: "Back to the catalogue",
  breadcrumb: "Breadcrumb",
  feedTitle: (library) => `New works · ${library}`,
  feedLink: "New works (Atom feed)",
  describeListing: (library, n, ordering) => `Catalogue of ${library}: ${en.works(n)}, sorted by ${ordering}.`,
  describeCategory: (label, library, n) => `${label} in the catalogue of ${library}: ${en.works(n)}.`,
  describeDirector: (name, library, n) => `${name}: ${en.works(n)} in the catalogue of ${library}.`,
};

export const stringsFor = (locale: string): Strings => (locale.toLowerCase().startsWith("en") ? en : es);

/** A day written YYYY-MM-DD, in words of the interface language (UTC: no time zone shifts). */
export function formatDay(day: string, strings: Strings): string {
  // Thousands of works share a few hundred dates: format each once.
  const key = strings.lang + day;
  let text = days.get(key);
  if (text === undefined) days.set(key, (text = dayFormat(strings.lang).format(new Date(`${day}T00:00:00Z`))));
  return text;
}

const days = new Map<string, string>();
const formats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(lang: string) {
  let format = formats.get(lang);
  if (format === undefined) formats.set(lang, (format = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" })));
  return format;
}
