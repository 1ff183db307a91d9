import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { apiImages } from "../../src/media/processed-images.ts";
import { domainView, type DomainView } from "../../src/model/domain-view.ts";
import { outputFiles, tempDir } from "../helpers/catalogue.ts";
import { buildSite, SCRIPT_ID, SCRIPT_TITLE, siteContent } from "./fixture.ts";

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;
let views: DomainView[];

const read = (rel: string) => readFile(path.join(out, rel), "utf8");
/** Every file's size and MD5, from disk. */
const files = (outDir: string) => outputFiles(outDir);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-site-"));
  content = await siteContent(dir);
  out = path.join(dir, "out");
  await buildSite(content, out);
  const catalogue = await loadCatalogue(content, () => {});
  views = catalogue.domains.map((d) => domainView(catalogue, d, "2026-11-20"));
});
afterAll(() => cleanup());

describe("the HTML catalogue", () => {
  it("writes a page per listed work, listing pages per ordering, director and category pages", async () => {
    const manifest = await files(out);
    for (const view of views) {
      const root =
        view.domain.domain === "domain-2.example"
          ? "domain-2.example/cataleg/"
          : "domain-1.example/";
      const pages = Math.ceil(view.orders.name.length / 20);
      expect(pages).toBeGreaterThan(1);
      for (const listed of view.orders.name) {
        expect(
          manifest[`${root}audiovisual-detail/${listed.work.id}/${listed.work.slug}/index.html`],
          listed.work.slug,
        ).toBeDefined();
        if (listed.director)
          expect(manifest[`${root}director/${listed.director.slug}/index.html`]).toBeDefined();
        if (listed.work.audiovisual_type)
          expect(
            manifest[`${root}category/${listed.work.audiovisual_type}/index.html`],
          ).toBeDefined();
      }
      const listings = Object.keys(manifest).filter(
        (f) =>
          f.startsWith(root) &&
          /^(ordering\/[^/]+\/)?(page\/\d+\/)?index\.html$/.test(f.slice(root.length)),
      );
      expect(listings).toHaveLength(4 * pages);
      expect(manifest[`${root}404.html`]).toBeDefined();
      expect(
        manifest[`${root}ordering/${view.domain.default_ordering}/index.html`],
        "the default ordering lives at the root only",
      ).toBeUndefined();
      // No page of a work that is not listed.
      const listed = new Set(view.orders.name.map((l) => l.work.id));
      for (const f of Object.keys(manifest)) {
        const m = /audiovisual-detail\/(\d+)\//.exec(f);
        if (f.startsWith(root) && m) expect(listed.has(Number(m[1]))).toBe(true);
      }
    }
  });

  it("escapes every CSV text: a title written as markup stays text", async () => {
    const html = await read(
      `domain-1.example/audiovisual-detail/${SCRIPT_ID}/script-title/index.html`,
    );
    expect(html).not.toContain("<script>alert");
    expect(html).toContain(
      "<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;</h1>",
    );
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(SCRIPT_TITLE).toContain("<script>");
  });

  it("paginates with rel=prev/next and links each ordering", async () => {
    const home = await read("domain-1.example/index.html");
    expect(home).toContain('<a rel="next" href="page/2/">');
    expect(home).not.toContain('rel="prev"');
    expect(home).toMatch(/<a href="ordering\/-name\/">/);
    expect(home).toMatch(/<a href="\.\/" aria-current="page">/);
    const second = await read("domain-1.example/page/2/index.html");
    expect(second).toContain('<a rel="prev" href="../../">');
    const view = views[0]!;
    const titles = [...second.matchAll(/<span class="card-title">([^<]*)<\/span>/g)].map(
      (m) => m[1],
    );
    expect(titles).toEqual(
      view.orders.name
        .slice(20, 40)
        .map((l) => l.work.name.replace(/&/g, "&amp;").replace(/"/g, "&quot;")),
    );
  });

  it("speaks the domain's language and keeps the base path", async () => {
    const en = await read("domain-2.example/cataleg/index.html");
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("Sort by");
    const es = await read("domain-1.example/index.html");
    expect(es).toContain('<html lang="es">');
    expect(es).toContain("Ordenar por");
    // The 404 page answers at any depth: its links are root-relative, with the base path.
    const notFound = await read("domain-2.example/cataleg/404.html");
    expect(notFound).toContain('href="/cataleg/assets/style.css"');
    expect(notFound).toContain('<a href="/cataleg/">');
  });

  it("shows the API's cover file among the site's image variants, relative to the page", async () => {
    const catalogue = await loadCatalogue(content, () => {});
    const api = await apiImages(catalogue.images.values(), path.join(dir, ".cache"));
    const listed = views[0]!.orders.name[0]!;
    const html = await read(
      `domain-1.example/audiovisual-detail/${listed.work.id}/${listed.work.slug}/index.html`,
    );
    const file = api.get(listed.work.cover)!.file;
    expect(html).toContain(`src="../../../media/${file}"`);
    const manifest = await files(out);
    for (const m of html.matchAll(/\.\.\/\.\.\/\.\.\/media\/([^ "]+)/g))
      expect(manifest[`domain-1.example/media/${m[1]}`], m[1]).toBeDefined();
    expect(html).toMatch(/<img [^>]*width="\d+" height="\d+" alt="[^"]+"/);
    expect(html).toContain(`href="../../../api/v1/videos/audiovisuals/${listed.work.id}/"`);
  });
});
