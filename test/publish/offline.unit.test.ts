import { describe, expect, it } from "vitest";
import type { DomainInfo } from "../../src/output/build-info.ts";
import path from "node:path";
import { offlineHtml, relativePath } from "../../src/publish/offline/relative-urls.ts";
import { offlineCopy } from "../../src/publish/offline/copy.ts";
import { rootPage } from "../../src/publish/offline/root-page.ts";

/** An archive holding these files. */
const holding = (...files: string[]) => {
  const set = new Set(files);
  return (rel: string) => set.has(rel);
};

describe("offline pages", () => {
  const page = "lib.example/cat/audiovisual-detail/7/x/index.html";
  const holds = holding(
    "lib.example/cat/index.html",
    "lib.example/cat/director/d/index.html",
    "lib.example/cat/page/2/index.html",
    "lib.example/cat/assets/style.css",
    "lib.example/cat/media/a-240.jpeg",
    "lib.example/_api/detail/7.json",
    "lib.example/_api/export/export_excel.xlsx",
    "media.example.org/cat/b-240.webp",
    "media.example.org/cat/b-480.webp",
    "media.example.org/cat/b-480.jpeg",
  );
  const rewrite = (html: string) => offlineHtml(html, page, holds);

  it("points relative folder links at their index.html, the fragment kept", () => {
    expect(
      rewrite(
        '<a href="../../../">a</a><a class="x" href="../../../director/d/">b</a><a href="../../../page/2/#top">c</a>',
      ),
    ).toBe(
      '<a href="../../../index.html">a</a><a class="x" href="../../../director/d/index.html">b</a><a href="../../../page/2/index.html#top">c</a>',
    );
  });

  it("keeps a page link's query on its index.html, and leaves an API URL with a query as it is", () => {
    expect(
      rewrite(
        '<a href="../../../?decade=1960&amp;new=1">a</a><a href="../../../page/2/?q=x#r">b</a><a href="/api/v1/videos/audiovisuals/7/?format=json">c</a><a href="https://lib.example/cat/?q=1">q</a>',
      ),
    ).toBe(
      '<a href="../../../index.html?decade=1960&amp;new=1">a</a><a href="../../../page/2/index.html?q=x#r">b</a><a href="/api/v1/videos/audiovisuals/7/?format=json">c</a><a href="../../../index.html?q=1">q</a>',
    );
  });

  it("points absolute URLs of media on another host at the copy's media folder, in src and every srcset candidate", () => {
    const html =
      '<picture><source type="image/webp" srcset="https://media.example.org/cat/b-240.webp 240w, https://media.example.org/cat/b-480.webp 480w">' +
      '<img src="https://media.example.org/cat/b-480.jpeg" alt=""></picture>';
    expect(rewrite(html)).toBe(
      '<picture><source type="image/webp" srcset="../../../../../media.example.org/cat/b-240.webp 240w, ../../../../../media.example.org/cat/b-480.webp 480w">' +
        '<img src="../../../../../media.example.org/cat/b-480.jpeg" alt=""></picture>',
    );
  });

  it("resolves root-relative URLs on the page's own host (the 404 page's links)", () => {
    const html =
      '<link rel="stylesheet" href="/cat/assets/style.css"><a href="/cat/">home</a><img src="/cat/media/a-240.jpeg">';
    expect(offlineHtml(html, "lib.example/cat/404.html", holds)).toBe(
      '<link rel="stylesheet" href="assets/style.css"><a href="index.html">home</a><img src="media/a-240.jpeg">',
    );
  });

  it("points the work's JSON and the spreadsheets at the API's files in the copy, under a base path too", () => {
    const html =
      '<link rel="alternate" type="application/json" href="../../../api/v1/videos/audiovisuals/7/">' +
      '<a href="../../../api/v1/videos/audiovisuals/7/" type="application/json">JSON</a>' +
      '<a href="../../../api/v1/videos/audiovisuals/export_excel/" download="x.xlsx">xlsx</a>';
    expect(rewrite(html)).toBe(
      '<link rel="alternate" type="application/json" href="../../../../_api/detail/7.json">' +
        '<a href="../../../../_api/detail/7.json" type="application/json">JSON</a>' +
        '<a href="../../../../_api/export/export_excel.xlsx" download="x.xlsx">xlsx</a>',
    );
  });

  it("leaves metadata that names the public site, external links and files the copy does not hold alone", () => {
    const html =
      '<link rel="canonical" href="https://lib.example/cat/audiovisual-detail/7/x/">' +
      '<link rel="alternate" hreflang="en" href="https://lib.example/cat/">' +
      '<meta property="og:image" content="https://media.example.org/cat/b-480.jpeg">' +
      '<script type="application/ld+json">{"url":"https://lib.example/cat/","image":"https://media.example.org/cat/b-480.jpeg"}</script>' +
      '<a href="https://other.example/">x</a><a href="mailto:a@b.example">m</a><a href="#main">s</a>' +
      '<a href="../../../../../other.example/x/">y</a><a href="../../../../../../../etc/">z</a><img src="data:,">';
    expect(rewrite(html)).toBe(html);
  });

  it("rewrites absolute links a reader follows into the site, and what a <link> loads", () => {
    const html =
      '<a href="https://lib.example/cat/director/d/">d</a><link rel="stylesheet" href="https://lib.example/cat/assets/style.css">';
    expect(rewrite(html)).toBe(
      '<a href="../../../director/d/index.html">d</a><link rel="stylesheet" href="../../../assets/style.css">',
    );
  });
});

/** A domain of a build description. */
const domain = (name: string, over: Partial<DomainInfo> = {}): DomainInfo => ({
  domain: `${name}.example`,
  name: `Library ${name} <&>`,
  base_url: `https://${name}.example`,
  media_url: `https://${name}.example/media`,
  locale: "ca",
  default_ordering: "name",
  base_path: "",
  media_folder: `${name}.example/media`,
  count: 1,
  total_pages: 1,
  exports: {},
  site: true,
  ...over,
});

describe("the filter panel's script in a copy", () => {
  const info = (over: Partial<DomainInfo>) => ({
    generator: "catalogue",
    version: 1,
    date: "2026-11-20",
    domains: [domain("a", over)],
  });
  const script = (media: string) =>
    `<script src="../assets/browse.js" data-browse="../browse/" data-root="../" data-media="${media}" defer></script>`;

  it("points at the copy of media on another host, relative to the page", async () => {
    const text: Record<string, string> = {
      "_catalogue/build.json": JSON.stringify(info({ media_url: "https://m.example/cat" })),
      "a.example/index.html": "<p>home</p>",
      "a.example/x/index.html": script("https://m.example/cat/"),
      "m.example/cat/c-240.jpeg": "",
    };
    const copy = await offlineCopy(Object.keys(text), async (rel) => text[rel]!);
    const page = copy.page("a.example/x/index.html", text["a.example/x/index.html"]!).toString();
    expect(page).toContain('data-media="../../m.example/cat/"');
    expect(page).toContain('data-browse="../browse/" data-root="../"');
  });

  it("leaves relative media, and media the copy does not hold, as they are", async () => {
    const text: Record<string, string> = {
      "_catalogue/build.json": JSON.stringify(info({})),
      "a.example/index.html": script("media/"),
      "a.example/y/index.html": script("https://elsewhere.example/m/"),
    };
    const copy = await offlineCopy(Object.keys(text), async (rel) => text[rel]!);
    expect(copy.page("a.example/index.html", text["a.example/index.html"]!).toString()).toContain(
      'data-media="media/"',
    );
    expect(
      copy.page("a.example/y/index.html", text["a.example/y/index.html"]!).toString(),
    ).toContain('data-media="https://elsewhere.example/m/"');
  });
});

describe("the copy's root page", () => {
  it("leads a one-domain copy to the domain's home, under its base path", () => {
    const html = rootPage([domain("a", { base_path: "/cataleg" })]);
    expect(html).toContain(
      '<meta http-equiv="refresh" content="0; url=a.example/cataleg/index.html">',
    );
    expect(html).toContain('<a href="a.example/cataleg/index.html">Library a &lt;&amp;&gt;</a>');
  });

  it("lists a network's domains, each linked to its home; one without a site unlinked", () => {
    const html = rootPage([
      domain("a"),
      domain("b", { base_path: "/x" }),
      domain("c", { site: false }),
    ]);
    expect(html).not.toContain("http-equiv");
    expect([...html.matchAll(/<li lang="ca">(.*?)<\/li>/g)].map((m) => m[1])).toEqual([
      '<a href="a.example/index.html">Library a &lt;&amp;&gt;</a> <small>a.example</small>',
      '<a href="b.example/x/index.html">Library b &lt;&amp;&gt;</a> <small>b.example</small>',
      "Library c &lt;&amp;&gt; <small>c.example</small>",
    ]);
  });

  it("is made from build.json: a --no-site domain's missing home is left unlinked", async () => {
    const info = {
      generator: "catalogue",
      version: 1,
      date: "2026-11-20",
      domains: [domain("a"), domain("b")],
    };
    const text: Record<string, string> = {
      "_catalogue/build.json": JSON.stringify(info),
      "a.example/index.html": "<p>home</p>",
    };
    const copy = await offlineCopy(Object.keys(text), async (rel) => text[rel]!);
    expect([...copy.added.keys()].sort()).toEqual(["index.html"]);
    expect([...copy.pages.keys()]).toEqual(["a.example/index.html"]);
    const root = copy.added.get("index.html")!.toString();
    expect(root).toContain('<a href="a.example/index.html">');
    expect(root).toContain("Library b &lt;&amp;&gt; <small>b.example</small>");
  });
});

describe("relative paths inside the copy", () => {
  it("are what path.posix.relative gives, from the root, beside, above and below", () => {
    const cases: [string, string][] = [
      [".", "a/index.html"],
      ["a", "a/index.html"],
      ["a/b/c", "a/index.html"],
      ["a/b", "a/b/c/d.html"],
      ["a/b", "x/y.jpeg"],
      ["a/bb", "a/b/c.html"],
      ["a", "index.html"],
    ];
    for (const [from, to] of cases)
      expect(relativePath(from, to), `${from} → ${to}`).toBe(path.posix.relative(from, to));
  });
});
