import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.ts";
import { buildFixture, generatedContent, outputFiles, tempDir } from "../helpers/catalogue.ts";
import { SCRIPT_ID, SCRIPT_TITLE } from "../site/fixture.ts";

/**
 * A library's own look (src/site/folder/, docs/site.md "Your own look"): a generated catalogue of
 * two domains (the second in English under /cataleg, also offered in Spanish), each with its own
 * logo, and a site/ folder with a Liquid header, footer and work page, a Markdown page in the
 * navigation (with a Spanish version, a link to it), a stylesheet and a text override. Whole
 * builds, hence e2e; test/site-folder/folder.unit.test.ts has the folder's problems.
 */

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let site: string;
let out: string;

const read = (rel: string) => readFile(path.join(out, rel), "utf8");
const write = async (rel: string, text: string) => {
  await mkdir(path.dirname(path.join(site, rel)), { recursive: true });
  await writeFile(path.join(site, rel), text);
};
const build = () => buildFixture(content, out, { site: true });

const HEADER_LIQUID = `<header class="own-header">
<a class="brand" href="{{ site.home }}">{% if site.logo %}<img src="{{ site.logo.src }}" alt="{{ site.logo.alt }}" width="{{ site.logo.width }}" height="{{ site.logo.height }}">{% else %}{{ site.name }}{% endif %}</a>
<nav aria-label="{{ texts.pagesNav }}"><ul>{% for p in nav.pages %}<li><a href="{{ p.url }}"{% if p.current %} aria-current="page"{% endif %}>{{ p.label }}</a></li>{% endfor %}{% for c in nav.categories %}<li><a href="{{ c.url }}">{{ c.label }}</a></li>{% endfor %}</ul></nav>
<p class="kind">{{ page.kind }} {{ lang }}</p>
</header>`;

const FOOTER_LIQUID = `<footer class="own-footer">
{% if site.home_url %}<a href="{{ site.home_url }}">{{ texts.homeLink }}</a>{% endif %}
<ul>{% for d in downloads %}<li><a href="{{ d.url }}" download="{{ d.file }}">{{ d.label }}</a></li>{% endfor %}</ul>
<p class="own-name">{{ site.name }}</p>
</footer>`;

const WORK_LIQUID = `<article class="own-work">
<h1>{{ work.title }}</h1>
{% if work.director %}<p>{{ texts.director }}: <a href="{{ work.director.url }}">{{ work.director.name }}</a></p>{% endif %}
{% if work.cover %}<img src="{{ work.cover.src }}" alt="{{ work.cover.alt }}" width="{{ work.cover.width }}" height="{{ work.cover.height }}">{% endif %}
</article>`;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-look-"));
  content = await generatedContent(dir, { works: 30, domains: 2 });
  site = path.join(dir, "site");
  out = path.join(dir, "out");
  const domains = path.join(content, "domains.csv");
  const text = await readFile(domains, "utf8");
  await writeFile(
    domains,
    text
      .replace("export_window_days\n", "export_window_days,logo,home_url,theme_color,languages\n")
      .replace(
        "es,name,30,30\n",
        "es,name,30,30,covers/cover-1.png,https://biblioteca-1.example/,#1f4e79,\n",
      )
      .replace(
        "domain-2.example,Red de bibliotecas 2,,,en,-year,30,30\n",
        "domain-2.example,Red de bibliotecas 2,https://domain-2.example/cataleg,,en,-year,30,30,covers/cover-2.png,,,es\n",
      ),
  );
  await writeFile(
    path.join(content, "audiovisuals.csv"),
    `${await readFile(path.join(content, "audiovisuals.csv"), "utf8")}${SCRIPT_ID},"${SCRIPT_TITLE.replace(/"/g, '""')}",script-title,peliculas,1,1950,90,covers/cover-0.png,1\n`,
  );
  await writeFile(
    path.join(content, "availability.csv"),
    `${await readFile(path.join(content, "availability.csv"), "utf8")}${SCRIPT_ID},domain-1.example,2020-01-01,\n`,
  );
  await write("_includes/header.liquid", HEADER_LIQUID);
  await write("_includes/footer.liquid", FOOTER_LIQUID);
  await write("_includes/work.liquid", WORK_LIQUID);
  await write("pages/about.md", "---\ntitle: About us\nnav: 1\n---\nOpen **Monday to Friday**.\n");
  await write(
    "pages/es/about.md",
    "---\ntitle: Sobre nosotros\nnav: 1\n---\nAbierto de lunes a viernes.\n",
  );
  await write("pages/hours.liquid", "---\ntitle: Hours\n---\n<p>{{ site.name }} opens at 9.</p>\n");
  await write("assets/site.css", ":root { --accent: #004225; }\n");
  await write("i18n/es.json", '{\n  "skip": "Ir al contenido principal"\n}\n');
  await build();
}, 120_000);
afterAll(() => cleanup());

const ONE = "domain-1.example/";
const TWO = "domain-2.example/cataleg/";

describe("a library's own look", () => {
  it("replaces the header with a Liquid template fed the documented data, on every page kind, under a base path too", async () => {
    for (const [root, logo] of [
      [ONE, "cover-1"],
      [TWO, "cover-2"],
    ] as const) {
      const home = await read(`${root}index.html`);
      expect(home).toContain('<header class="own-header">');
      expect(home).not.toContain('class="site-header"');
      expect(home).toContain('<p class="kind">home');
      expect(home).toMatch(
        root === ONE ? /<a href="about\/">Sobre nosotros<\/a>/ : /<a href="about\/">About us<\/a>/,
      );
      // Each domain shows its own logo, with the library's name as its alt text.
      const src = /<img src="([^"]+)" alt="Red de bibliotecas \d"/.exec(home)?.[1];
      expect(src).toBeDefined();
      const logos = await outputFiles(out);
      expect(Object.keys(logos).some((f) => f.endsWith(src!.replace(/^(\.\.\/)*/, "")))).toBe(true);
      expect(home).toContain(`alt="Red de bibliotecas ${logo.slice(-1)}"`);
      const page2 = await read(`${root}ordering/-name/index.html`);
      expect(page2).toContain('<p class="kind">listing');
      expect(page2).toMatch(/<a href="\.\.\/\.\.\/about\/">(About us|Sobre nosotros)<\/a>/);
      expect(await read(`${root}404.html`)).toContain('<p class="kind">not-found');
    }
    const logo1 = /<img src="([^"]+)" alt="Red de bibliotecas 1"/.exec(
      await read(`${ONE}index.html`),
    )![1];
    const logo2 = /<img src="([^"]+)" alt="Red de bibliotecas 2"/.exec(
      await read(`${TWO}index.html`),
    )![1];
    expect(path.basename(logo1!)).not.toBe(path.basename(logo2!));
  });

  it("replaces the footer with a Liquid template, escaping by default", async () => {
    const home = await read(`${ONE}index.html`);
    expect(home).toContain('<footer class="own-footer">');
    expect(home).toContain('<a href="https://biblioteca-1.example">Web de la biblioteca</a>');
    expect(home).toMatch(/download="[^"]+\.xlsx"/);
    expect(home).toContain('<p class="own-name">Red de bibliotecas 1</p>');
  });

  it("replaces a page kind, and escapes the CSV's text in the library's template", async () => {
    const html = await read(`${ONE}audiovisual-detail/${SCRIPT_ID}/script-title/index.html`);
    expect(html).toContain('<article class="own-work">');
    // liquidjs writes quotes as &#34;: the same text.
    expect(html).toContain(
      "<h1>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#34;quotes&#34;</h1>",
    );
    expect(html).not.toContain("<script>alert");
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    // The head stays the product's.
    expect(html).toContain(
      '<link rel="canonical" href="https://domain-1.example/audiovisual-detail/',
    );
    expect(html).toContain('<script type="application/ld+json">');
  });

  it("builds own pages in the frame, in the navigation and the sitemap, with a language's own version", async () => {
    // The Spanish domain shows the page's Spanish version (pages/es/about.md), the English one the page every language gets.
    const about = await read(`${ONE}about/index.html`);
    expect(about).toContain("<h1>Sobre nosotros</h1>");
    expect(about).toContain("<p>Abierto de lunes a viernes.</p>");
    expect(about).toContain('<a href="../about/" aria-current="page">Sobre nosotros</a>');
    expect(about).toContain('<link rel="canonical" href="https://domain-1.example/about/">');
    expect(await read(`${ONE}hours/index.html`)).toContain(
      "<p>Red de bibliotecas 1 opens at 9.</p>",
    );
    expect(await read(`${ONE}sitemap.xml`)).toContain("<loc>https://domain-1.example/about/</loc>");
    // The English domain's Spanish version has the page's Spanish version, in its navigation too.
    const english = await read(`${TWO}about/index.html`);
    expect(english).toContain("<h1>About us</h1>");
    expect(english).toContain("<strong>Monday to Friday</strong>");
    const es = await read(`${TWO}es/about/index.html`);
    expect(es).toContain("<h1>Sobre nosotros</h1>");
    expect(es).toContain('hreflang="en" href="https://domain-2.example/cataleg/about/"');
    expect(await read(`${TWO}es/index.html`)).toContain('<a href="about/">Sobre nosotros</a>');
    const sitemap = await read(`${TWO}sitemap.xml`);
    expect(sitemap).toContain("<loc>https://domain-2.example/cataleg/es/about/</loc>");
  });

  it("copies the assets, links site.css after the default stylesheet, and sets the theme colour by a stylesheet", async () => {
    const home = await read(`${ONE}index.html`);
    expect(await read(`${ONE}assets/site.css`)).toContain("#004225");
    expect(home.indexOf('href="assets/style.css"')).toBeLessThan(
      home.indexOf('href="assets/site.css"'),
    );
    expect(home).toContain('<meta name="theme-color" content="#1f4e79">');
    expect(home).toContain('<link rel="stylesheet" href="assets/theme.css">');
    expect(await read(`${ONE}assets/theme.css`)).toContain("--accent: #1f4e79;");
    expect(home).not.toMatch(/style="/);
    expect(await read(`${TWO}assets/site.css`)).toContain("#004225");
    expect(await read(`${TWO}index.html`)).not.toContain("theme-color");
  });

  it("overrides interface texts from site/i18n/<lang>.json", async () => {
    expect(await read(`${ONE}index.html`)).toContain(
      '<a class="skip" href="#main">Ir al contenido principal</a>',
    );
    expect(await read(`${TWO}es/index.html`)).toContain("Ir al contenido principal");
    expect(await read(`${TWO}index.html`)).not.toContain("Ir al contenido principal");
  });

  it("names the file and line of a broken template, and keeps the previous output whole", async () => {
    const before = await outputFiles(out);
    await write(
      "_includes/header.liquid",
      "<header>\n{% if site.name %}\n<p>never closed</p>\n</header>\n",
    );
    const error = await build().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/site\/_includes\/header\.liquid:2: .*not closed/);
    expect(await outputFiles(out)).toEqual(before);
    // A template that parses but fails on a page: its file and line too.
    await write("_includes/header.liquid", '<header>\n\n{% include "missing-part" %}\n</header>\n');
    const failed = await build().catch((e: unknown) => e);
    expect((failed as Error).message).toMatch(/site\/_includes\/header\.liquid:3: .*missing-part/);
    expect(await outputFiles(out)).toEqual(before);
    await write("_includes/header.liquid", HEADER_LIQUID);
  }, 120_000);

  it("rebuilds only the stylesheet when only site.css changes, and every page when the header does", async () => {
    await write("assets/site.css", ":root { --accent: #123456; }\n");
    const styled = await build();
    // The stylesheet of each site (two domains, three versions) and the records.
    expect(styled.written).toBeLessThan(12);
    expect(await read(`${ONE}assets/site.css`)).toContain("#123456");
    await write("_includes/header.liquid", HEADER_LIQUID.replace("own-header", "own-header2"));
    const headed = await build();
    expect(headed.written).toBeGreaterThan(100);
    expect(await read(`${ONE}index.html`)).toContain("own-header2");
  }, 120_000);
});

describe("a header wrapping the built-in one", () => {
  it("gets the documented data and the built-in header as content written with | raw", async () => {
    await rm(path.join(site, "_includes/header.liquid"));
    await write(
      "_includes/header.liquid",
      `<div class="own-wrap">{{ content | raw }}<ul class="own-languages">{% for l in nav.languages %}<li><a href="{{ l.url }}" hreflang="{{ l.lang }}">{{ l.label }}</a></li>{% endfor %}</ul><p class="own-kind">{{ page.kind }} {{ texts.skip }}</p></div>`,
    );
    await build();
    const [slug] = await readdir(path.join(out, TWO, "director"));
    const english = await read(`${TWO}director/${slug}/index.html`);
    expect(english).toContain('<div class="own-wrap"><header class="site-header">');
    expect(english).toContain('<a href="../../es/director/');
    expect(english).toContain('<p class="own-kind">director Skip to content</p>');
    // The built-in header keeps the logo, escaped text and all.
    expect(english).toMatch(/<a class="brand" href="\.\.\/\.\.\/"><picture class="logo">/);
  }, 120_000);
});

describe("a home page override", () => {
  it("wraps the built-in listing (content | raw) on the home page only, with the listing's data", async () => {
    await write(
      "_includes/home.liquid",
      '<p class="welcome">{{ listing.count }} · {{ works[0].title }} · {{ site.name }}</p>\n{{ content | raw }}',
    );
    await build();
    const home = await read(`${ONE}index.html`);
    expect(home).toMatch(/<p class="welcome">\d+ · [^<]+ · Red de bibliotecas 1<\/p>/);
    // The built-in content stays: the heading, the filters with the search box, the cards.
    expect(home).toContain("<h1>Catálogo</h1>");
    expect(home).toContain('<form id="filters" class="filters" role="search"');
    expect(home.match(/<h1[ >]/g)).toHaveLength(1);
    expect(await read(`${ONE}ordering/-name/index.html`)).not.toContain('class="welcome"');
    await rm(path.join(site, "_includes/home.liquid"));
  }, 120_000);
});

describe("a browse page override", () => {
  it("replaces the content of the decades' index, a decade, new/ and leaving/, with their data", async () => {
    await write(
      "_includes/browse.liquid",
      `<h1>{{ browse.shelf }}</h1>
<p class="own-browse">{{ browse.shelf }} {{ browse.decade }} {{ browse.days }} {{ browse.page }}/{{ browse.pages }} {{ browse.count }} {{ works | size }}</p>
<ul class="own-decades">{% for d in browse.decades %}<li><a href="{{ d.url }}">{{ d.decade }}</a> {{ d.count }}</li>{% endfor %}</ul>
<ol class="own-works">{% for w in works %}<li><a href="{{ w.url }}">{{ w.title }}</a> {{ w.year }}{% if w.is_leaving %} leaving {{ w.available_until }}{% endif %}</li>{% endfor %}</ol>`,
    );
    await build();
    const decades = await read(`${ONE}decade/index.html`);
    const index = [...decades.matchAll(/<li><a href="([^"]+)">(\d+)<\/a> (\d+)<\/li>/g)];
    expect(index.length).toBeGreaterThan(0);
    expect(decades).toContain('<p class="own-browse">decades   1/1 ');
    expect(decades).not.toContain('class="decades"');
    // Each decade's link and count lead to its page, whose works are of that decade.
    for (const [, url, decade, count] of index) {
      expect(url).toBe(`../decade/${decade}/`);
      const page = await read(`${ONE}decade/${decade}/index.html`);
      const shown = /<p class="own-browse">decade (\d+) {2}1\/(\d+) (\d+) (\d+)<\/p>/.exec(page);
      expect(shown?.[1]).toBe(decade);
      expect(shown?.[3]).toBe(count);
      expect(Number(shown?.[4])).toBe(Math.min(Number(count), 20));
      for (const [, year] of page.matchAll(/<\/a> (\d{4})<\/li>/g))
        expect(Number(year) - (Number(year) % 10)).toBe(Number(decade));
      expect(page.match(/<h1[ >]/g)).toHaveLength(1);
    }
    expect(await read(`${ONE}new/index.html`)).toMatch(
      /<p class="own-browse">new {2}30 1\/\d+ \d+ \d+<\/p>/,
    );
    expect(await read(`${ONE}leaving/index.html`)).toMatch(
      /<p class="own-browse">leaving {2}30 1\/\d+ \d+ \d+<\/p>/,
    );
    // Other page kinds keep the built-in content.
    expect(await read(`${ONE}index.html`)).not.toContain("own-browse");
    await rm(path.join(site, "_includes/browse.liquid"));
  }, 120_000);
});

describe("the brand columns", () => {
  it("shows a logo whose file was replaced, on every page of its domain", async () => {
    const { copyFile } = await import("node:fs/promises");
    const srcOf = async (rel: string) =>
      /<img src="([^"]+)"[^>]* alt="Red de bibliotecas 1"/.exec(await read(rel))?.[1];
    // A logo that is no work's cover, so that only the logo changes.
    const domains = path.join(content, "domains.csv");
    await copyFile(path.join(content, "covers/cover-3.png"), path.join(content, "logo.png"));
    await writeFile(
      domains,
      (await readFile(domains, "utf8")).replace("covers/cover-1.png", "logo.png"),
    );
    await build();
    const before = await srcOf(`${ONE}about/index.html`);
    await copyFile(path.join(content, "covers/cover-4.png"), path.join(content, "logo.png"));
    await build();
    const after = await srcOf(`${ONE}about/index.html`);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(await srcOf(`${ONE}index.html`)).toBe(after!.replace(/^\.\.\//, ""));
    expect((await outputFiles(out))[`${ONE}media/${path.basename(after!)}`]).toBeDefined();
  }, 120_000);

  it("refuses a theme colour that is no colour, and warns of a missing logo", async () => {
    const { checkContent } = await import("../../src/content/load.ts");
    const domains = path.join(content, "domains.csv");
    const text = await readFile(domains, "utf8");
    try {
      await writeFile(
        domains,
        text
          .replace("#1f4e79", "red;}body{x:y")
          .replace("covers/cover-2.png", "covers/no-logo.png"),
      );
      const check = await checkContent(content);
      expect(check.problems.map((p) => `${p.line} ${p.column}: ${p.message}`)).toEqual([
        '2 theme_color: expected a CSS colour like "#7a1f3d", "rgb(122 31 61)" or "darkred", got "red;}body{x:y"',
      ]);
      expect(
        check.warnings
          .filter((w) => w.column === "logo")
          .map((w) => `${w.line} ${w.message}; ${w.otherwise}`),
      ).toEqual([
        expect.stringMatching(/^3 .*no-logo\.png.*; the library's name is shown instead$/),
      ]);
    } finally {
      await writeFile(domains, text);
    }
  });
});
