import { existsSync } from "node:fs";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { InputError, type Problem } from "../../src/errors.ts";
import { EXAMPLE_SITE } from "../../src/init/example-site.ts";
import type { baseData, kindData } from "../../src/site/folder/template-data.ts";
import { Engines, LIMITS, type Render } from "../../src/site/folder/engines.ts";
import { readSiteFolder } from "../../src/site/folder/folder.ts";
import { SAMPLE_ADDED, sampleBase } from "../../src/site/folder/sample.ts";
import { tempDir } from "../helpers/catalogue.ts";

/**
 * A site folder runs no code, reads nothing outside itself and runs within bounds
 * (src/site/folder/, docs/site.md "Your own look", docs/security.md), and the documented rules
 * of overrides are checked once per build. The whole command's side is in test/hostile/.
 */

let dir: string;
let cleanup: () => Promise<void>;
let site: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-site-folder-"));
});
afterAll(() => cleanup());
beforeEach(async () => {
  site = path.join(dir, "site");
  await rm(site, { recursive: true, force: true });
  await rm(path.join(dir, "outside"), { recursive: true, force: true });
});

const put = async (files: Record<string, string>) => {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(site, rel)), { recursive: true });
    await writeFile(path.join(site, rel), text);
  }
};
const link = async (rel: string, target: string) => {
  await mkdir(path.dirname(path.join(site, rel)), { recursive: true });
  await symlink(target, path.join(site, rel));
};
const shown = (p: Problem) =>
  `${path.relative(dir, p.file)}${p.line !== undefined ? `:${p.line}` : ""}: ${p.message}`;
const problemsOf = () => {
  try {
    readSiteFolder(site);
  } catch (error) {
    if (error instanceof InputError) return error.problems.map(shown);
    throw error;
  }
  return [];
};
const warningsOf = () => readSiteFolder(site).warningsOn([]).map(shown);

describe("files that are links", () => {
  it("reads a link to a file or a folder inside site/ as what it names", async () => {
    await put({
      "pages/about.md": "---\ntitle: About\n---\nOpen.\n",
      "help-pages/index.md": "---\ntitle: Help\n---\nAsk.\n",
    });
    await link("pages/es/about.md", "../about.md");
    await link("pages/help", "../help-pages");
    const look = readSiteFolder(site);
    expect(look.pages.map((p) => `${p.lang ?? "*"} ${p.dir} ${p.title}`).sort()).toEqual([
      "* about/ About",
      "* help/ Help",
      "es about/ About",
    ]);
  });

  it("refuses a link out of site/, to nothing, or to a folder holding it, without reading it", async () => {
    await mkdir(path.join(dir, "outside"), { recursive: true });
    await writeFile(path.join(dir, "outside", "texts.json"), '{ "skip": "SECRET" }\n');
    await put({ "pages/about.md": "---\ntitle: About\n---\n" });
    await link("i18n/es.json", path.join(dir, "outside", "texts.json"));
    await link("assets/gone.css", "no-such.css");
    await link("pages/loop", "..");
    await link("_includes/partials", path.join(dir, "outside"));
    const found = problemsOf();
    expect(found).toEqual([
      `site/_includes/partials: a link to ${path.join(dir, "outside")}, outside ${site}/: copy the file into ${site}/ instead`,
      "site/assets/gone.css: a link to no-such.css, which does not exist",
      `site/i18n/es.json: a link to ${path.join(dir, "outside", "texts.json")}, outside ${site}/: copy the file into ${site}/ instead`,
      "site/pages/loop: a link to .., a folder that holds it",
    ]);
    expect(found.join("\n")).not.toContain("SECRET");
  });
});

describe("what is never run", () => {
  it("refuses front matter in any language but YAML, before gray-matter sees it", async () => {
    const marker = path.join(dir, "marker");
    const code = `process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;
    await put({
      "pages/a.md": `---js\n{ title: (${code}, "A") }\n---\n`,
      "pages/b.md": `---coffee\ntitle: "B"\n---\n`,
      "pages/c.md": `\uFEFF--- javascript \n({ title: (${code}, "C") })\n---\n`,
      "pages/d.md": "---\ntitle: D\n---\nplain YAML\n",
    });
    const found = problemsOf();
    expect(existsSync(marker)).toBe(false);
    expect(found).toEqual([
      expect.stringMatching(/^site\/pages\/a\.md:1: front matter: only YAML is read.*"---js"/),
      expect.stringMatching(/^site\/pages\/b\.md:1: front matter: only YAML is read.*"---coffee"/),
      expect.stringMatching(
        /^site\/pages\/c\.md:1: front matter: only YAML is read.*"---javascript"/,
      ),
    ]);
  });

  it("refuses a .njk file anywhere but assets/, naming Liquid", async () => {
    await put({
      "_includes/footer.njk": "<footer>{{ site.name }}</footer>",
      "_includes/parts/hours.njk": "9:00",
      "pages/x.njk": "---\ntitle: X\n---\n",
      "assets/notes.njk": "copied as it is",
    });
    expect(problemsOf()).toEqual(
      ["_includes/footer.njk", "_includes/parts/hours.njk", "pages/x.njk"].map(
        (rel) =>
          `site/${rel}: Nunjucks templates can run code on the machine that builds (Nunjucks has no sandbox): write it in Liquid (${path.basename(rel, ".njk")}.liquid); docs/site.md#templates`,
      ),
    );
  });

  it("gives a template the data's own values only", () => {
    const engines = new Engines(path.join(dir, "_includes"), (f) => path.relative(dir, f));
    const render = engines.compile(
      path.join(dir, "t.liquid"),
      '[{{ site.constructor }}][{{ site.name.constructor }}][{{ site.__proto__ }}][{{ site["toString"] }}][{{ site.name }}]',
    ) as Render;
    expect(render({ site: { name: "Uno" } })).toBe("[][][][][Uno]");
  });

  it("escapes what a template writes, and drops the characters XML forbids", () => {
    const engines = new Engines(path.join(dir, "_includes"), (f) => path.relative(dir, f));
    const render = engines.compile(path.join(dir, "t.liquid"), "{{ t }}|{{ l }}|{{ t | raw }}");
    const text = "<b>\u0001A\uFFFE&\uD800B</b> \u{1F3AC}";
    expect((render as Render)({ t: text, l: ["x\u0002", "<y>"] })).toBe(
      `&lt;b&gt;A&amp;B&lt;/b&gt; \u{1F3AC}|x&lt;y&gt;|${text}`,
    );
  });
});

describe("limits", () => {
  const engines = (limits = LIMITS) =>
    new Engines(path.join(dir, "_includes"), (f) => path.relative(dir, f), limits);
  const compile = (e: Engines, text: string) => e.compile(path.join(dir, "t.liquid"), text, 3);

  it("stops a render past its time, at the template's line in its file", () => {
    const render = compile(
      engines({ ...LIMITS, renderMs: 50 }),
      "<p>\n{% for i in (1..100000) %}{% for j in (1..100000) %}{% endfor %}{% endfor %}",
    ) as Render;
    expect(() => render({})).toThrow(/^t\.liquid:4: the template ran past its limit of 0\.05 s/);
  });

  it("stops the templates of a build past their shared time, each render earning a little", () => {
    // A clock that moves one millisecond each time it is read: liquidjs reads it on entering
    // each list of templates (each turn of a loop), so a render of this loop takes some 70 ms,
    // the same whatever the machine's load.
    let now = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now++);
    try {
      const e = engines({ ...LIMITS, renderMs: 10_000, buildMs: 200, earnedMs: 5 });
      const loop = compile(e, "{% for i in (1..30) %}{{ i }}{% endfor %}") as Render;
      let renders = 0;
      let error: unknown;
      try {
        for (; renders < 1_000; renders++) loop({});
      } catch (thrown) {
        error = thrown;
      }
      expect((error as Error).message).toMatch(
        /^t\.liquid:3: the site's templates ran past their time for this build/,
      );
      // 200 ms, and 5 more for each render: a few renders, not the 1,000 that 10 s each allows.
      expect(renders).toBeGreaterThanOrEqual(2);
      expect(renders).toBeLessThanOrEqual(5);
    } finally {
      clock.mockRestore();
    }
  });

  it("stops a render past its memory before making it, and a template too long to parse", () => {
    const e = engines({ ...LIMITS, parse: 200 });
    const loop = compile(e, "{% for i in (1..2000000000) %}x{% endfor %}") as Render;
    expect(() => loop({})).toThrow(
      /^t\.liquid:3: the template went past its limit of 10,000,000 characters or items/,
    );
    const long = compile(e, "x".repeat(201));
    expect(long).toMatchObject({
      file: "t.liquid",
      message: expect.stringMatching(/longer than its limit of 200 characters/),
    });
  });
});

describe("includes", () => {
  it("are errors at their line when they name no file of _includes/, in any branch", async () => {
    await mkdir(path.join(dir, "outside"), { recursive: true });
    await writeFile(path.join(dir, "outside", "x.liquid"), "SECRET");
    await put({
      "_includes/hours.liquid": "9:00",
      "_includes_evil/x.liquid": "SECRET",
      "_includes/footer.liquid": [
        "<footer>",
        '{% include "hours" %}',
        '{% if false %}{% include "nope" %}{% endif %}',
        '{% render "../_includes_evil/x.liquid" %}',
        `{% include "${path.join(dir, "outside", "x.liquid")}" %}`,
        "</footer>",
      ].join("\n"),
    });
    expect(problemsOf()).toEqual([
      expect.stringMatching(
        /^site\/_includes\/footer\.liquid:3: \{% include "nope" %\}: no such file in .*site\/_includes\//,
      ),
      expect.stringMatching(
        /^site\/_includes\/footer\.liquid:4: \{% render "\.\.\/_includes_evil\/x\.liquid" %\}: no such file/,
      ),
      expect.stringMatching(
        /^site\/_includes\/footer\.liquid:5: \{% include "\/.*outside\/x\.liquid" %\}: no such file/,
      ),
    ]);
  });

  it("names the partial's own file and line when it does not parse", async () => {
    await put({
      "_includes/hours.liquid": "9:00\n{% if x %}\n",
      "_includes/footer.liquid": '<footer>\n{% include "hours" %}\n</footer>',
    });
    expect(problemsOf()).toEqual([
      expect.stringMatching(/^site\/_includes\/hours\.liquid:2: .*not closed/),
    ]);
  });
});

/** A value's shape: its keys all the way down, null aside, every leaf alike. */
type Shape<T> = T extends readonly (infer E)[]
  ? Shape<E>[]
  : T extends object
    ? { [K in keyof T]-?: Shape<NonNullable<T[K]>> }
    : "leaf";
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Base = ReturnType<typeof baseData>;
type Added<K extends string> = Omit<
  Extract<ReturnType<typeof kindData>, Record<K, unknown>>,
  keyof Base
>;

describe("the sample data the rules are checked with", () => {
  it("has the shape of the pages' data, value for value (a type check: tsc fails otherwise)", () => {
    const shapes: [
      Same<Shape<ReturnType<typeof sampleBase>>, Shape<Base>>,
      Same<Shape<typeof SAMPLE_ADDED.listing>, Shape<Added<"listing">>>,
      Same<Shape<typeof SAMPLE_ADDED.work>, Shape<Added<"work">>>,
      Same<Shape<typeof SAMPLE_ADDED.director>, Shape<Added<"director">>>,
      Same<Shape<typeof SAMPLE_ADDED.browse>, Shape<Added<"browse">>>,
    ] = [true, true, true, true, true];
    expect(shapes).toEqual([true, true, true, true, true]);
    expect(Object.keys(sampleBase("home")).sort()).toEqual(
      ["downloads", "feed", "lang", "nav", "page", "site", "texts"].sort(),
    );
  });
});

describe("the rules of overrides and the data's values", () => {
  /** The templates of docs/site.md's examples, by their file, as its comments name them. */
  async function documentedExamples(): Promise<Record<string, string>> {
    const docs = await readFile(path.join(import.meta.dirname, "../../docs/site.md"), "utf8");
    const files: Record<string, string> = {};
    for (const block of docs.matchAll(/```liquid\n([\s\S]*?)```/g)) {
      const parts = block[1]!.split(
        /\{% comment %\} (_includes\/[\w-]+\.liquid)[^%]*\{% endcomment %\}\n/,
      );
      for (let i = 1; i < parts.length; i += 2) files[parts[i]!] = parts[i + 1]!;
    }
    return files;
  }

  it("finds nothing to say of docs/site.md's examples and of init's header", async () => {
    const examples = await documentedExamples();
    expect(Object.keys(examples).sort()).toEqual(
      ["browse", "director", "footer", "header", "home", "listing", "not-found", "work"].map(
        (n) => `_includes/${n}.liquid`,
      ),
    );
    await put(examples);
    expect(warningsOf()).toEqual([]);
    await rm(site, { recursive: true });
    await put({
      ...EXAMPLE_SITE,
      "_includes/header.liquid": EXAMPLE_SITE["_includes/header.liquid.example"]!,
    });
    expect(warningsOf()).toEqual([]);
  });

  it("warns of each rule broken, once per template, naming the file", async () => {
    await put({
      "_includes/home.liquid": "<h1>Welcome</h1>\n{{ content | raw }}",
      "_includes/director.liquid": "<h2>{{ director.name }}</h2>",
      "_includes/header.liquid":
        '<header><a href="{{ site.base_url }}/x">{{ site.name }}</a></header>',
      "_includes/footer.liquid": '<footer><nav><a href="{{ feed }}">Feed</a></nav></footer>',
      "pages/about.md": "---\ntitle: About\n---\n# About\n\nText.\n",
    });
    expect(warningsOf()).toEqual([
      "site/_includes/director.liquid: the content of director pages has no <h1>: keep one, the page's title (with {{ content | raw }}, the built-in one)",
      'site/_includes/footer.liquid: a <nav> has no aria-label: name each list of links, e.g. <nav aria-label="{{ texts.pagesNav }}">',
      'site/_includes/header.liquid: the <header> has no link home: add <a href="{{ site.home }}">',
      "site/_includes/home.liquid: the content of the home page has 2 <h1>: keep one, the page's title (with {{ content | raw }}, the built-in one)",
      "site/pages/about.md: an own page's title is its <h1>: start the body's headings at <h2> (## in Markdown)",
    ]);
  });

  it("warns of values the data does not have, at their line, with the name meant", async () => {
    await put({
      "_includes/hours.liquid": "{{ site.opening }}",
      "_includes/work.liquid": [
        "<h1>{{ work.titel }}</h1>",
        "{% for w in works %}{{ w.nothing }}{% endfor %}",
        '{% assign k = "skip" %}{{ texts[k] }}{{ texts.pagesNv }}{{ texts["search.label"] }}',
        "{{ work.director.name.size }}{{ site.logo.src }}{{ nav.pages.first.label }}{{ listing.page }}",
        '{% include "hours" %}',
      ].join("\n"),
      "pages/hours.liquid":
        "---\ntitle: Hours\n---\n<p>{{ title }} {{ site.name }} {{ content }}</p>\n",
    });
    expect(warningsOf()).toEqual([
      "site/_includes/hours.liquid:1: {{ site.opening }}: no such value in the data of work pages (it prints nothing) (site has name, domain, base_url, home, home_url, theme_color, logo, assets)",
      "site/_includes/work.liquid:1: {{ work.titel }}: no such value in the data of work pages (it prints nothing); did you mean work.title?",
      "site/_includes/work.liquid:2: {{ works }}: no such value in the data of work pages (it prints nothing); did you mean work?",
      "site/_includes/work.liquid:3: {{ texts.pagesNv }}: no such value in the data of work pages (it prints nothing); did you mean texts.pagesNav?",
      "site/_includes/work.liquid:4: {{ listing.page }}: no such value in the data of work pages (it prints nothing) (it has site, page, lang, texts, nav, downloads, feed, work, content)",
      "site/pages/hours.liquid:4: {{ content }}: no such value in an own page's data (it prints nothing) (it has site, page, lang, texts, nav, downloads, feed, title)",
    ]);
  });
});
