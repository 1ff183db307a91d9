import { describe, expect, it } from "vitest";
import { API_PATH, urlFolder } from "../../src/api/layout.ts";
import { checkLanguages, languageFolders } from "../../src/content/languages.ts";
import { OwnerTable, type SitePaths } from "../../src/content/owners.ts";
import { domainRow, type Domain } from "../../src/content/schema.ts";
import { formatProblem, type Problem } from "../../src/errors.ts";
import { HIDDEN_PREFIXES } from "../../src/serve/routes.ts";
import {
  ASSETS_DIR,
  categoryDir,
  directorDir,
  FEED_FILE,
  listingDir,
  NOT_FOUND_FILE,
  ROBOTS_FILE,
  SITEMAP_FILE,
  sitemapPartFile,
  workDir,
} from "../../src/web/urls.ts";
import { isProductPath } from "../../src/util/product-paths.ts";
import { BROWSE_DIR } from "../../src/site/browse-index.ts";

/**
 * Who owns each path of a host (src/content/owners.ts), the URLs a server can serve
 * (src/content/schema.ts) and the folders a language may name (src/content/languages.ts): the
 * checks validate makes once per build, at the line of domains.csv that breaks them.
 */

/** A domains.csv row as the CSV reader gives it: every column, null when empty. */
function row(cells: Record<string, string>): Record<string, string | null> {
  const columns = Object.keys(domainRow.in.shape);
  return Object.fromEntries(columns.map((c) => [c, cells[c] ?? null]));
}

/** The problems of one row: `column: message`. */
function rowProblems(cells: Record<string, string>): string[] {
  const result = domainRow.safeParse(row({ domain: "uno.example", name: "Uno", ...cells }));
  return result.success ? [] : result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
}

describe("base_url and media_url", () => {
  it("refuse, as written, what a server cannot serve the same everywhere", () => {
    const refused: [string, string, RegExp][] = [
      ["base_url", "https://uno.example/a//b", /an empty path segment/],
      ["base_url", "https://uno.example/cat//", /an empty path segment/],
      [
        "base_url",
        "https://uno.example/a;b",
        /the path segment "a;b" cannot be served the same by every server/,
      ],
      ["base_url", "https://uno.example/a$b", /the path segment "a\$b" cannot be served/],
      ["base_url", "https://uno.example/it's", /the path segment "it's" cannot be served/],
      ["base_url", "https://uno.example/a%20b", /the path segment "a%20b" cannot be served/],
      [
        "base_url",
        "https://uno.example/{env.HOME}",
        /the path segment "\{env.HOME\}" cannot be served/,
      ],
      ["base_url", "https://uno.example/a b", /the path segment "a b" cannot be served/],
      ["base_url", "https://uno.example/caf\u00e9", /the path segment "café" cannot be served/],
      // The URL parser would make these /cat/x, /x and /: checked as written, they are refused.
      ["base_url", "https://uno.example/cat\\x", /the path segment "cat\\\\x" cannot be served/],
      ["base_url", "https://uno.example/cat/../x", /path segments must not start with "_" or "."/],
      ["base_url", "https://uno.example\\cat", /the path segment "\\\\cat" cannot be served/],
      [
        "base_url",
        "https://uno.example/cat#",
        /expected an http\(s\) URL without credentials, query or fragment/,
      ],
      [
        "base_url",
        "https://uno.example/cat?",
        /expected an http\(s\) URL without credentials, query or fragment/,
      ],
      ["base_url", "https://uno.example:0/cat", /port 0 is no port/],
      [
        "base_url",
        "https://[::1]/cat",
        /expected an http\(s\) URL without credentials, query or fragment/,
      ],
      ["media_url", "https://media.example/a//covers", /an empty path segment/],
      ["media_url", "https://media.example/$uri", /the path segment "\$uri" cannot be served/],
      ["media_url", "https://media.example/~u", /the path segment "~u" cannot be served/],
      ["media_url", "https://media.example:8443/covers", /media behind a port \(:8443\)/],
    ];
    for (const [column, url, why] of refused) {
      const problems = rowProblems({ [column]: url });
      expect(problems, url).toHaveLength(1);
      expect(problems[0], url).toMatch(new RegExp(`^${column}: ${why.source}`));
    }
  });

  it("refuse a base_url with a port when the media would follow it there, and take one with media elsewhere", () => {
    expect(rowProblems({ base_url: "https://uno.example:8443/cat" })).toEqual([
      expect.stringMatching(
        /^base_url: the media go under base_url by default .*add a media_url without a port/,
      ),
    ]);
    expect(
      rowProblems({ base_url: "https://uno.example:8443/cat", media_url: "https://m.example/c" }),
    ).toEqual([]);
  });

  it("keep what every server serves, in the form links are built on", () => {
    const parsed = (cells: Record<string, string>) =>
      domainRow.parse(row({ domain: "uno.example", name: "Uno", ...cells }));
    expect(parsed({ base_url: "HTTPS://UNO.Example/Cat.v2/a-b_c~d/" })).toMatchObject({
      base_url: "https://uno.example/Cat.v2/a-b_c~d",
      media_url: "https://uno.example/Cat.v2/a-b_c~d/media",
    });
    expect(
      parsed({ base_url: "https://b\u00fccher.example", media_url: "https://m.example:443/x" }),
    ).toMatchObject({
      base_url: "https://xn--bcher-kva.example",
      media_url: "https://m.example/x",
    });
  });
});

const site = (
  domain: string,
  base_url: string,
  media_url = `${base_url}/media`,
  folders: string[] = [],
  line?: number,
): SitePaths => ({
  domain,
  base_url,
  media_url,
  folders,
  ...(line === undefined ? {} : { line }),
});
const problemsOf = (...sites: SitePaths[]) =>
  new OwnerTable(sites.map((s, i) => ({ ...s, line: i + 2 })))
    .problems("domains.csv")
    .map(formatProblem);

describe("each path of a host has one owner", () => {
  const uno = (media?: string, folders: string[] = []) =>
    site("uno.example", "https://uno.example", media, folders);
  const dos = site("dos.example", "https://dos.example");

  it("refuses a media folder on another domain's paths or on its own site's, at the media's line", () => {
    const cases: [string, SitePaths[], RegExp][] = [
      [
        "dos's root",
        [uno("https://dos.example"), dos],
        /^domains\.csv:2: media_url: https:\/\/dos\.example is the root of dos\.example's site \(domains\.csv line 3\)/,
      ],
      [
        "dos's API",
        [uno("https://dos.example/api"), dos],
        /is dos\.example's API \(domains\.csv line 3\)/,
      ],
      [
        "dos's list URL",
        [uno("https://dos.example/api/v1/videos/audiovisuals"), dos],
        /is inside dos\.example's API/,
      ],
      [
        "dos's director pages",
        [uno("https://dos.example/director"), dos],
        /is the catalogue's own \/director on dos\.example/,
      ],
      [
        "dos's own page folder",
        [uno("https://dos.example/about"), dos],
        /is inside dos\.example's site/,
      ],
      [
        "dos's new works (to come)",
        [uno("https://dos.example/new"), dos],
        /the catalogue's own \/new/,
      ],
      ["its own root", [uno("https://uno.example"), dos], /is the root of uno\.example's own site/],
      [
        "its own assets, in capitals",
        [uno("https://uno.example/Assets"), dos],
        /the catalogue's own \/assets on uno\.example/,
      ],
      [
        "its own browse index",
        [uno("https://uno.example/browse/x"), dos],
        /is inside the catalogue's own \/browse/,
      ],
      [
        "its own English version",
        [uno("https://uno.example/en", ["en"]), dos],
        /is uno\.example's own version in "en"/,
      ],
      [
        "a folder holding its own site",
        [site("uno.example", "https://uno.example/cat/x", "https://uno.example/cat"), dos],
        /holds uno\.example's own site/,
      ],
      [
        "dos's robots.txt",
        [uno("https://dos.example/robots.txt"), site("dos.example", "https://dos.example/cat")],
        /the catalogue's own \/robots\.txt/,
      ],
    ];
    for (const [name, sites, why] of cases) {
      const problems = problemsOf(...sites);
      expect(problems, name).toHaveLength(1);
      expect(problems[0], name).toMatch(/^domains\.csv:2: media_url: /);
      expect(problems[0], name).toMatch(why);
    }
  });

  it("refuses media folders nested on one host, and sites nested on one host, at the inner one's line", () => {
    expect(
      problemsOf(
        uno("https://m.example/covers"),
        site("dos.example", "https://dos.example", "https://m.example/covers/dos"),
      ),
    ).toEqual([
      expect.stringMatching(
        /^domains\.csv:3: media_url: https:\/\/m\.example\/covers\/dos is inside uno\.example's media folder \(domains\.csv line 2\)/,
      ),
    ]);
    expect(
      problemsOf(
        site("uno.example", "https://shared.example/cat"),
        site("dos.example", "https://shared.example/cat/dos"),
      ),
    ).toEqual([
      expect.stringMatching(
        /^domains\.csv:3: base_url: https:\/\/shared\.example\/cat\/dos is inside uno\.example's site/,
      ),
    ]);
    expect(problemsOf(site("uno.example", "https://dos.example/uno"), dos)).toEqual([
      expect.stringMatching(
        /^domains\.csv:2: base_url: https:\/\/dos\.example\/uno is inside dos\.example's site \(domains\.csv line 3\)/,
      ),
    ]);
    // Compared by whole segments and without case: /cat and /CAT are one path, /cat and /cataleg two.
    expect(
      problemsOf(
        site("uno.example", "https://shared.example/cat"),
        site("dos.example", "https://shared.example/CAT"),
      ),
    ).toHaveLength(1);
    expect(
      problemsOf(
        site("uno.example", "https://shared.example/cat"),
        site("dos.example", "https://shared.example/cataleg"),
      ),
    ).toEqual([]);
  });

  it("lets a site hold its media anywhere but its own folders, and domains share one media folder", () => {
    expect(problemsOf(uno(), dos)).toEqual([]);
    expect(problemsOf(uno("https://uno.example/covers"), dos)).toEqual([]);
    expect(
      problemsOf(
        uno("https://m.example/covers"),
        site("dos.example", "https://dos.example", "https://m.example/covers"),
      ),
    ).toEqual([]);
    expect(
      problemsOf(
        uno("https://m.example"),
        site("dos.example", "https://dos.example/cat", "https://dos.example/covers"),
      ),
    ).toEqual([]);
    // The sample catalogue's three domains.
    expect(
      problemsOf(
        site("bibliotecas-norte.example", "https://bibliotecas-norte.example"),
        site("library-south.example", "https://library-south.example"),
        site(
          "biblioteques-llevant.example",
          "https://biblioteques-llevant.example/cataleg",
          "https://media.biblioteques-llevant.example/covers",
        ),
      ),
    ).toEqual([]);
  });

  it("is a table made once: a thousand domains on one host are checked in well under a second", () => {
    const sites = Array.from({ length: 1000 }, (_, i) =>
      site(`d${i}.example`, `https://shared.example/d${i}`, "https://media.example/covers", [
        "en",
        "fr",
      ]),
    );
    const started = performance.now();
    expect(problemsOf(...sites)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses an own page whose address a language version, a media folder or the catalogue owns, naming the page", () => {
    const table = new OwnerTable([
      site("uno.example", "https://uno.example", "https://uno.example/covers", ["de"]),
      site("dos.example", "https://dos.example/cat", "https://dos.example/covers"),
    ]);
    const problems = table.pageProblems([
      { dir: "covers/", file: "site/pages/covers.md" },
      { dir: "de/", file: "site/pages/de.md" },
      { dir: "new/", file: "site/pages/new.md" },
      { dir: "about/", file: "site/pages/about.md" },
      { dir: "cat/", file: "site/pages/cat.md" },
    ]);
    expect(problems.map(formatProblem)).toEqual([
      "site/pages/covers.md: its address https://uno.example/covers/ is uno.example's own media folder: choose another path for this page",
      'site/pages/de.md: its address https://uno.example/de/ is uno.example\'s own version in "de" (languages): choose another path for this page',
      "site/pages/new.md: its address https://uno.example/new/ is the catalogue's own /new on uno.example (and on 1 other domain(s)): choose another path for this page",
    ]);
  });
});

describe("language folders", () => {
  const domain = (languages: string[]): Domain =>
    domainRow.parse(row({ domain: "uno.example", name: "Uno", languages: languages.join(" ") }));

  it("are one of the seven or a tag of a 2–3-letter language, and no folder of the catalogue's", () => {
    const problems: Problem[] = [];
    const warnings: Problem[] = [];
    const tags = [
      "en",
      "ca-valencia",
      "de",
      "gsw",
      "zh-Hant",
      "es-419",
      "media",
      "assets",
      "director",
      "browse",
      "api",
      "new",
    ];
    checkLanguages(
      [{ line: 2, value: domain(tags.filter((t) => t !== "es-419")) }],
      "domains.csv",
      problems,
      warnings,
    );
    expect(problems.map(formatProblem)).toEqual([
      'domains.csv:2: languages: "media" cannot name a version of the site (its folder, "media/"): a language tag starts with a language of 2 or 3 letters, like "de", "gsw" or "pt-BR"',
      'domains.csv:2: languages: "assets" cannot name a version of the site (its folder, "assets/"): a language tag starts with a language of 2 or 3 letters, like "de", "gsw" or "pt-BR"',
      'domains.csv:2: languages: "director" cannot name a version of the site (its folder, "director/"): a language tag starts with a language of 2 or 3 letters, like "de", "gsw" or "pt-BR"',
      'domains.csv:2: languages: "browse" cannot name a version of the site (its folder, "browse/"): a language tag starts with a language of 2 or 3 letters, like "de", "gsw" or "pt-BR"',
      'domains.csv:2: languages: "api" would put a version of the site in "api/", a folder of the catalogue\'s own: leave it out',
      'domains.csv:2: languages: "new" would put a version of the site in "new/", a folder of the catalogue\'s own: leave it out',
    ]);
    // Those outside the seven with a language of their own build, with the Spanish interface.
    expect(warnings.map((w) => w.message.slice(0, 20))).toEqual([
      'no interface in "de"',
      'no interface in "gsw',
      'no interface in "zh-',
    ]);
    expect(languageFolders(domain(tags))).toEqual(["en", "va", "de", "gsw", "zh-hant", "es"]);
  });
});

describe("the catalogue's own paths (src/util/product-paths.ts)", () => {
  it("hold every folder and file the site and the API write at a site's root", () => {
    const first = (dir: string) => dir.split("/")[0]!;
    const written = [
      first(API_PATH.slice(1)),
      ...HIDDEN_PREFIXES.map((p) => p.slice(1, -1)),
      ASSETS_DIR,
      BROWSE_DIR,
      workDir(1, "x"),
      directorDir("x"),
      categoryDir("peliculas", 2),
      listingDir("year", "name", 2),
      listingDir("name", "name", 2),
      NOT_FOUND_FILE,
      SITEMAP_FILE,
      sitemapPartFile(12),
      FEED_FILE,
      ROBOTS_FILE,
      // The default media folder (content/schema.ts): {base_url}/media.
      urlFolder(domainRow.parse(row({ domain: "uno.example", name: "Uno" })).media_url).slice(
        "uno.example/".length,
      ),
    ].map(first);
    for (const name of written) expect(isProductPath(name), name).toBe(true);
    // A search index the catalogue no longer writes leaves its folder free.
    for (const name of [
      "about",
      "help",
      "en",
      "covers",
      "sitemap.xml.bak",
      "sitemap-x.xml",
      "pagefind",
    ])
      expect(isProductPath(name), name).toBe(false);
  });
});
