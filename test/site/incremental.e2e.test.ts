import { copyFile, mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView } from "../../src/model/domain-view.ts";
import { siteVersion } from "../../src/site/keys.ts";
import { sourceFiles } from "../../src/util/code-version.ts";
import { outputFiles, tempDir } from "../helpers/catalogue.ts";
import { buildSiteCounted, siteContent } from "./fixture.ts";

// What Eleventy really rendered, and a way to change the template version without editing a template.
const spy = vi.hoisted(() => ({ rendered: [] as number[], versionSuffix: "" }));
vi.mock("../../src/site/eleventy.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/site/eleventy.ts")>();
  return {
    ...original,
    renderPages: async (...args: Parameters<typeof original.renderPages>) => {
      const count = await original.renderPages(...args);
      spy.rendered.push(count);
      return count;
    },
  };
});
vi.mock("../../src/site/keys.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/site/keys.ts")>();
  return {
    ...original,
    siteVersion: async () => (await original.siteVersion()) + spy.versionSuffix,
  };
});
// An edited template is an edited program too: every domain's inputs key changes with it.
vi.mock("../../src/program.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/program.ts")>();
  return {
    ...original,
    programDigest: async () => (await original.programDigest()) + spy.versionSuffix,
  };
});

type Files = Record<string, { size: number; md5: string }>;

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let out: string;
let first: Files;

/** Every file's size and MD5, from disk. */
const files = (outDir: string): Promise<Files> => outputFiles(outDir);
/** Paths whose bytes differ between two manifests (added and removed included). */
const changed = (a: Files, b: Files) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((f) => a[f]?.md5 !== b[f]?.md5)
    .sort();
const html = (list: string[]) => list.filter((f) => f.endsWith(".html"));
/** The site's files beside its pages: sitemaps, feed, robots.txt (no page, API file, browse index, or build record). */
const siteFiles = (list: string[]) =>
  list.filter((f) => !f.endsWith(".html") && !/\/(_api|browse)\/|^_catalogue\//.test(f));
/** Builds and returns the counts, with what Eleventy rendered. */
async function rebuild(target = out) {
  spy.rendered = [];
  const build = await buildSiteCounted(content, target);
  return { ...build, rendered: spy.rendered.reduce((n, c) => n + c, 0) };
}
const touchCover = async () => {
  const now = new Date(Date.now() + 1000);
  await utimes(path.join(content, "covers/cover-0.png"), now, now);
};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-site-incremental-"));
  content = await siteContent(dir);
  out = path.join(dir, "out");
  const build = await rebuild();
  expect(build.rendered).toBe(build.pages);
  first = await files(out);
  // The site's search is its browse index; no other search index is written.
  for (const root of ["domain-1.example/", "domain-2.example/cataleg/"])
    expect(first[`${root}browse/search.js`]).toBeDefined();
  expect(Object.keys(first).filter((f) => /(^|\/)pagefind\//.test(f))).toEqual([]);
});
afterAll(() => cleanup());

describe("an incremental site build", () => {
  it("keeps both domains whole, planning no page, when nothing they are made of changed", async () => {
    // Touching an image changes the build's input fingerprint, not its bytes: the build runs,
    // and finds each domain's inputs key unchanged (src/domain-inputs.ts).
    await touchCover();
    const build = await rebuild();
    expect(build.summary.skipped).toBe(false);
    expect(build.pages).toBe(0);
    expect(build.toRender).toBe(0);
    expect(build.rendered).toBe(0);
    expect(changed(first, await files(out)).filter((f) => !f.startsWith("_catalogue/"))).toEqual(
      [],
    );
  });

  it("after renaming one title renders only the pages whose bytes change, and equals a full build", async () => {
    // A work listed in the first domain only: the second domain keeps its pages and browse index.
    const catalogue = await loadCatalogue(content, () => {});
    const [one, two] = catalogue.domains.map((d) => domainView(catalogue, d, "2026-11-20"));
    const inTwo = new Set(two!.orders.name.map((l) => l.work.id));
    const target = one!.orders.name.find((l) => !inTwo.has(l.work.id) && l.director !== null)!.work;
    const title = "Zz título renombrado";
    const csv = path.join(content, "audiovisuals.csv");
    const lines = (await readFile(csv, "utf8")).split("\n");
    const line = lines.findIndex((l) => l.startsWith(`${target.id},${target.name},`));
    expect(line).toBeGreaterThan(0);
    lines[line] = lines[line]!.replace(`,${target.name},`, `,${title},`);
    await writeFile(csv, lines.join("\n"));

    const build = await rebuild();
    const after = await files(out);
    const changedPages = html(changed(first, after));
    // The work page, the listing, director and category pages that show it (and those it moved between).
    expect(changedPages).toContain(
      `domain-1.example/audiovisual-detail/${target.id}/${target.slug}/index.html`,
    );
    expect(changedPages.length).toBeGreaterThan(4);
    expect(changedPages.length).toBeLessThan(build.pages / 4);
    expect(changedPages.every((f) => f.startsWith("domain-1.example/"))).toBe(true);
    expect(build.toRender).toBe(changedPages.length);
    expect(build.rendered).toBe(changedPages.length);
    const work = await readFile(
      path.join(out, `domain-1.example/audiovisual-detail/${target.id}/${target.slug}/index.html`),
      "utf8",
    );
    expect(work).toContain(`<h1>${title}</h1>`);
    const director = await readFile(
      path.join(
        out,
        `domain-1.example/director/${one!.orders.name.find((l) => l.work.id === target.id)!.director!.slug}/index.html`,
      ),
      "utf8",
    );
    expect(director).toContain(title);
    expect(director).not.toContain(`>${target.name}<`);
    // Of the filter panel's index: the first domain's files in name order (the work moved) and the
    // one card chunk holding the work (its id modulo the chunks); not its texts, nothing of the second.
    const chunks = Object.keys(after).filter((f) =>
      f.startsWith("domain-1.example/browse/cards/"),
    ).length;
    expect(changed(first, after).filter((f) => f.includes("/browse/"))).toEqual([
      `domain-1.example/browse/cards/${target.id % chunks}.js`,
      "domain-1.example/browse/directors.js",
      "domain-1.example/browse/facets.js",
      "domain-1.example/browse/search.js",
    ]);

    // Of the files beside the pages, only the feed, and only when it shows the work; the sitemap
    // lists URLs, which a title does not change; robots.txt names the sitemap.
    const isNew = one!.orders.name.find((l) => l.work.id === target.id)!.isNew;
    // The JSON feed holds the new and the leaving works.
    const listed = one!.orders.name.find((l) => l.work.id === target.id)!;
    expect(siteFiles(changed(first, after))).toEqual([
      ...(isNew ? ["domain-1.example/feed.atom"] : []),
      ...(isNew || listed.isLeaving ? ["domain-1.example/feed.json"] : []),
    ]);

    // No page is stale: the incremental output is the output of a build from scratch.
    const fresh = path.join(dir, "fresh");
    await mkdir(fresh);
    const scratch = await rebuild(path.join(fresh, "out"));
    expect(scratch.rendered).toBe(scratch.pages);
    expect(await files(path.join(fresh, "out"))).toEqual(after);
  });

  it("after a synopsis is written renders only that work's pages, and rewrites no other file", async () => {
    const before = await files(out);
    const catalogue = await loadCatalogue(content, () => {});
    const views = catalogue.domains.map((d) => domainView(catalogue, d, "2026-11-20"));
    // A work that is not new anywhere (a new one's feed entry would show its synopsis too).
    const target = views[0]!.orders.name.find(
      (l) => !views.some((v) => v.orders.name.some((o) => o.work.id === l.work.id && o.isNew)),
    )!.work;
    const roots = views
      .filter((v) => v.orders.name.some((l) => l.work.id === target.id))
      .map((v) =>
        v.domain.domain === "domain-1.example" ? "domain-1.example/" : "domain-2.example/cataleg/",
      );
    const csv = path.join(content, "audiovisuals.csv");
    const lines = (await readFile(csv, "utf8")).split("\n");
    // A new column: empty for every other work, so only the target's pages change.
    const synopsis =
      "Una sinopsis escrita después, en dos frases. La segunda no cabe en la descripción si la primera es larga.";
    const edited = lines.map((line, i) =>
      i === 0
        ? `${line},synopsis_es`
        : line === ""
          ? line
          : line.startsWith(`${target.id},`)
            ? `${line},"${synopsis}"`
            : `${line},`,
    );
    await writeFile(csv, edited.join("\n"));

    const build = await rebuild();
    const after = await files(out);
    const expected = roots
      .map((root) => `${root}audiovisual-detail/${target.id}/${target.slug}/index.html`)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    // The MARC records show the synopsis too (520): test/marc checks which files hold the work.
    const isMarc = (rel: string) => /\/_api\/export\/[^/]+\.(mrc|xml)$/.test(rel);
    expect(
      changed(before, after).filter((f) => !f.startsWith("_catalogue/") && !isMarc(f)),
    ).toEqual(expected);
    expect(build.toRender).toBe(expected.length);
    expect(build.rendered).toBe(expected.length);
    for (const page of expected)
      expect(await readFile(path.join(out, page), "utf8")).toContain(`>${synopsis}</p>`); // marked lang="es" on the English domain
  });

  it("after renaming a new work's title and slug rewrites its feed entry and the sitemap, and equals a full build", async () => {
    const before = await files(out);
    const catalogue = await loadCatalogue(content, () => {});
    const view = domainView(catalogue, catalogue.domains[1]!, "2026-11-20");
    const target = view.orders.name.find((l) => l.isNew)!.work;
    const csv = path.join(content, "audiovisuals.csv");
    const text = await readFile(csv, "utf8");
    expect(text).toContain(`\n${target.id},${target.name},${target.slug},`);
    await writeFile(
      csv,
      text.replace(
        `\n${target.id},${target.name},${target.slug},`,
        `\n${target.id},Novedad renombrada,novedad-renombrada,`,
      ),
    );
    await rebuild();
    const after = await files(out);
    const feed = await readFile(path.join(out, "domain-2.example/cataleg/feed.atom"), "utf8");
    expect(feed).toContain("<title>Novedad renombrada</title>");
    expect(feed).toContain(`/cataleg/audiovisual-detail/${target.id}/novedad-renombrada/"/>`);
    expect(
      await readFile(path.join(out, "domain-2.example/cataleg/sitemap.xml"), "utf8"),
    ).toContain(`/cataleg/audiovisual-detail/${target.id}/novedad-renombrada/</loc>`);
    // The domains that list the work change their feed (it is new in each) and sitemap; robots.txt stays.
    const expected = [
      "domain-2.example/cataleg/feed.atom",
      "domain-2.example/cataleg/feed.json",
      "domain-2.example/cataleg/sitemap.xml",
    ];
    expect(
      siteFiles(changed(before, after)).filter((f) => f.startsWith("domain-2.example/")),
    ).toEqual(expected);
    expect(changed(before, after)).not.toContain("domain-2.example/robots.txt");
    const fresh = path.join(dir, "fresh-slug");
    await mkdir(fresh);
    await rebuild(path.join(fresh, "out"));
    expect(await files(path.join(fresh, "out"))).toEqual(after);
  });

  it("keeps no stale page when a cover, a director and a domain's name change", async () => {
    const before = await files(out);
    // New bytes for a cover: new variant file names in every page that shows it.
    await copyFile(
      path.join(content, "covers/cover-5.png"),
      path.join(content, "covers/cover-3.png"),
    );
    const directors = path.join(content, "directors.csv");
    await writeFile(
      directors,
      (await readFile(directors, "utf8")).replace(
        /\n2,Directora [^,]+,/,
        "\n2,Directora cambiada,",
      ),
    );
    const domains = path.join(content, "domains.csv");
    await writeFile(
      domains,
      (await readFile(domains, "utf8")).replace("Red de bibliotecas 2", "Red renombrada"),
    );

    const build = await rebuild();
    const after = await files(out);
    expect(build.rendered).toBeGreaterThan(
      html(changed(before, after)).filter((f) => f.startsWith("domain-1.example/")).length,
    );
    // Every page of the second domain shows its name.
    expect(
      html(changed(before, after)).filter((f) => f.startsWith("domain-2.example/")),
    ).toHaveLength(
      html(Object.keys(after).filter((f) => f.startsWith("domain-2.example/"))).length,
    );
    const fresh = path.join(dir, "fresh-2");
    await mkdir(fresh);
    await rebuild(path.join(fresh, "out"));
    expect(await files(path.join(fresh, "out"))).toEqual(after);
  });

  it("renders every page again when the templates change, rewriting no identical byte", async () => {
    const before = await files(out);
    spy.versionSuffix = "-edited";
    try {
      await touchCover();
      const build = await rebuild();
      expect(build.pages).toBe(html(Object.keys(before)).length);
      expect(build.rendered).toBe(build.pages);
      // The same bytes come out (the templates did not really change): nothing is rewritten.
      expect(changed(before, await files(out)).filter((f) => !f.startsWith("_catalogue/"))).toEqual(
        [],
      );
    } finally {
      spy.versionSuffix = "";
    }
  });
});

describe("the template version", () => {
  it("follows the imports of the templates, so editing any of them changes it", async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const list = sourceFiles(root, [".eleventy.ts"]);
    for (const file of [
      "src/site/templates/work.ts",
      "src/site/templates/frame.ts",
      "src/web/i18n.ts",
      "src/web/html.ts",
      "src/site/image-variants.ts",
    ]) {
      expect(list).toContain(file);
    }
    // Type-only imports are not followed: they render nothing.
    const fake = path.join(dir, "fake");
    await mkdir(fake);
    await writeFile(
      path.join(fake, "a.ts"),
      `import type { T } from "./t.ts";\nimport {\n  b,\n} from "./b.ts";\nexport * from "./c.ts";\n`,
    );
    for (const name of ["b", "c", "t"])
      await writeFile(path.join(fake, `${name}.ts`), "export const x = 1;\n");
    expect(sourceFiles(fake, ["a.ts"])).toEqual(["a.ts", "b.ts", "c.ts"]);
    expect(await siteVersion()).toMatch(/^[0-9a-f]{32}$/);
  });
});
