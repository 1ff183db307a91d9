import { chmod, mkdir, readFile, readdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { readBuildInfo, type BuildInfo } from "../../src/output/build-info.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";
import { LIBRARY_SOURCES } from "./header-checks.ts";

/**
 * The catalogue every server is tested on: ~250 generated works in three domains; the second
 * domain lives under a path (https://domain-2.example/cataleg) and keeps its media on another
 * host (https://media.example/covers); the third is plain http. HTML pages are placed by hand (the fixture builds with
 * --no-site, and the site renderer is another module's business).
 */
export interface Fixture {
  dir: string;
  content: string;
  /** The output folder as servers are told it: the link `dist`. */
  dist: string;
  info: BuildInfo;
  /** Bytes of a file of the current build version (path relative to the output folder). */
  read(rel: string): Promise<Buffer>;
  /** Ids of the works a domain lists (one retrieve file each). */
  listedIds(domain: string): Promise<number[]>;
  cleanup(): Promise<void>;
}

export const HTML = {
  index: "<!doctype html><title>Catàleg</title><h1>Catàleg</h1>\n",
  sub: "<!doctype html><title>Sub</title><h1>Sub</h1>\n",
  notFound: "<!doctype html><title>No trobat</title><h1>No trobat</h1>\n",
  /** The 404 pages of domain-2's language versions. */
  notFoundEs:
    '<!doctype html><html lang="es"><title>Página no encontrada</title><h1>Página no encontrada</h1>\n',
  notFoundCa:
    "<!doctype html><html lang=\"ca\"><title>No s'ha trobat la pàgina</title><h1>No s'ha trobat la pàgina</h1>\n",
};

export async function makeFixture(): Promise<Fixture> {
  const { dir, cleanup } = await tempDir("catalogue-serve-");
  // nginx started as root runs its workers as "nobody": they must be able to read the build.
  await chmod(dir, 0o755);
  const content = await generatedContent(dir, { works: 250, domains: 3 });
  const domainsCsv = path.join(content, "domains.csv");
  const csv = await readFile(domainsCsv, "utf8");
  // domain-2's site (in English) is also offered in Spanish and Catalan (under cataleg/es/ and cataleg/ca/):
  // the API is the same as in one language, and each version answers with its own 404 page.
  const lines = csv
    .replace(
      "domain-2.example,Red de bibliotecas 2,,,",
      "domain-2.example,Red de bibliotecas 2,https://domain-2.example/cataleg,https://media.example/covers,",
    )
    // One domain without TLS: no Strict-Transport-Security there.
    .replace(
      "domain-3.example,Red de bibliotecas 3,,,",
      "domain-3.example,Red de bibliotecas 3,http://domain-3.example,,",
    )
    .trimEnd()
    .split("\n")
    .map((line, i) =>
      i === 0
        ? `${line},languages`
        : line.startsWith("domain-2.example,")
          ? `${line},es ca`
          : `${line},`,
    );
  await writeFile(domainsCsv, lines.join("\n") + "\n");
  // The library's additions to its pages' policy: every server sends them (read without the site too).
  await mkdir(path.join(dir, "site"));
  await writeFile(
    path.join(dir, "site", "content-security.json"),
    JSON.stringify(LIBRARY_SOURCES, null, 2) + "\n",
  );
  const dist = path.join(dir, "dist");
  await buildFixture(content, dist);
  await placeHtml(dist);
  const info = await readBuildInfo(dist);
  return {
    dir,
    content,
    dist,
    info,
    read: async (rel) => readFile(path.join(await realpath(dist), rel)),
    async listedIds(domain) {
      const names = await readdir(path.join(dist, domain, "_api/detail"));
      return names.map((n) => Number(n.replace(/\.json$/, ""))).sort((a, b) => a - b);
    },
    cleanup,
  };
}

/**
 * The files crawlers and feed readers ask for by name (the site renderer writes them; here they
 * are placed by hand like the pages): robots.txt at each host's root, the sitemap, a sitemap part
 * and the feed under each domain's base path. Paths relative to the output folder.
 */
export const DISCOVERY: Record<string, string> = {
  "domain-1.example/robots.txt":
    "User-agent: *\nDisallow: /api/\nSitemap: https://domain-1.example/sitemap.xml\n",
  "domain-1.example/sitemap.xml": `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://domain-1.example/sitemap-1.xml</loc></sitemap></sitemapindex>\n`,
  "domain-1.example/sitemap-1.xml": `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://domain-1.example/</loc></url></urlset>\n`,
  "domain-1.example/feed.atom": `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>${"Novedades ".repeat(100)}</title></feed>\n`,
  "domain-2.example/robots.txt":
    "User-agent: *\nDisallow: /cataleg/api/\nSitemap: https://domain-2.example/cataleg/sitemap.xml\n",
  "domain-2.example/cataleg/sitemap.xml": `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://domain-2.example/cataleg/</loc></url></urlset>\n`,
  "domain-2.example/cataleg/feed.atom": `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Novetats</title></feed>\n`,
};

/**
 * The files other sites read (the site renderer writes them; placed by hand here): each language
 * version's JSON feed and the shelf's module in the locale's assets. Domain-2 has versions in
 * Spanish and Catalan under `/cataleg/es/` and `/cataleg/ca/`; only Catalan's feed is placed.
 */
export const SHARED: Record<string, { text: string; type: string }> = {
  "domain-1.example/feed.json": {
    text: `{"version":"https://jsonfeed.org/version/1.1","title":"${"Novedades ".repeat(80)}","items":[]}\n`,
    type: "application/json",
  },
  "domain-1.example/assets/shelf.js": {
    text: `customElements.define("catalogue-shelf", class extends HTMLElement {});\n`,
    type: "text/javascript; charset=utf-8",
  },
  "domain-2.example/cataleg/feed.json": {
    text: `{"version":"https://jsonfeed.org/version/1.1","title":"Novetats","items":[]}\n`,
    type: "application/json",
  },
  "domain-2.example/cataleg/ca/feed.json": {
    text: `{"version":"https://jsonfeed.org/version/1.1","title":"Novetats (ca)","items":[]}\n`,
    type: "application/json",
  },
  "domain-2.example/cataleg/assets/shelf.js": {
    text: `export {};\n`,
    type: "text/javascript; charset=utf-8",
  },
};

/** Pages of a static HTML catalogue under domain-2's base path, and the discovery files. */
export async function placeHtml(dist: string) {
  const root = await realpath(dist);
  for (const [rel, text] of [
    ...Object.entries(DISCOVERY),
    ...Object.entries(SHARED).map(([rel, { text }]) => [rel, text] as const),
  ]) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  const base = path.join(root, "domain-2.example/cataleg");
  await mkdir(path.join(base, "sub"), { recursive: true });
  await writeFile(path.join(base, "index.html"), HTML.index);
  await writeFile(path.join(base, "sub/index.html"), HTML.sub);
  await writeFile(path.join(base, "404.html"), HTML.notFound);
  for (const [folder, page] of [
    ["es", HTML.notFoundEs],
    ["ca", HTML.notFoundCa],
  ] as const) {
    await mkdir(path.join(base, folder), { recursive: true });
    await writeFile(path.join(base, folder, "404.html"), page);
  }
}
