import { describe, expect, it } from "vitest";
import type { BuildInfo, DomainEntry } from "../../src/output/build-info.ts";
import { headersFor } from "../../src/publish/targets/file-headers.ts";
import { checkDeletes, makePlan } from "../../src/publish/records/plan.ts";
import { phaseOf, type Phase } from "../../src/publish/source.ts";
import type { TargetState } from "../../src/publish/records/state.ts";
import type { PublishedEntry, SourceFile } from "../../src/publish/targets/target.ts";

const domain = (name: string, extra: Partial<DomainEntry> = {}): DomainEntry => ({
  domain: name,
  name,
  base_url: `https://${name}`,
  media_url: `https://${name}/media`,
  locale: "es",
  default_ordering: "name",
  base_path: "",
  media_folder: `${name}/media`,
  count: 30,
  total_pages: 2,
  exports: { export_excel: `export_excel-${name}-2026-11-20.xlsx` },
  site: true,
  position: name.charCodeAt(0),
  date: "2026-11-20",
  ...extra,
});
const info: BuildInfo = {
  generator: "catalogue",
  version: 1,
  date: "2026-11-20",
  domains: [
    domain("a.example"),
    domain("b.example", {
      base_path: "/cat",
      media_url: "https://img.example/b",
      media_folder: "img.example/b",
    }),
  ],
};

function source(paths: Record<string, string>): (SourceFile & { phase: Phase })[] {
  // Sorted by path, as readSource gives them.
  return Object.entries(paths)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, md5]) => ({
      path,
      size: md5.length,
      md5,
      abs: null,
      bytes: null,
      ...headersFor(path, info),
      phase: phaseOf(path, info),
    }));
}

/** A target state as the records or a listing give it. */
function stateOf(
  held: Map<string, { size: number; md5: string }>,
  published: Map<string, PublishedEntry> = new Map(),
  known: Iterable<string> = published.keys(),
): TargetState {
  return {
    held,
    published,
    known: new Set(known),
    records: new Map(),
    recordTags: new Map(),
    buildJson: null,
    legacy: false,
    listed: false,
  };
}
const anything = () => true;

describe("headers", () => {
  it("sets type and caching per kind of file", () => {
    expect(headersFor("a.example/_api/list/plain/name/2.json", info)).toEqual({
      contentType: "application/json",
      cacheControl: "public, max-age=300",
    });
    expect(headersFor("a.example/media/abc-480.jpeg", info)).toEqual({
      contentType: "image/jpeg",
      cacheControl: "public, max-age=31536000, immutable",
    });
    expect(headersFor("img.example/b/abc-480.webp", info)).toEqual({
      contentType: "image/webp",
      cacheControl: "public, max-age=31536000, immutable",
    });
    expect(headersFor("a.example/index.html", info).contentType).toBe("text/html; charset=utf-8");
    // What crawlers and feed readers ask for by name (the S3 object's type is what it is served with).
    expect(headersFor("a.example/robots.txt", info)).toEqual({
      contentType: "text/plain; charset=utf-8",
      cacheControl: "public, max-age=300",
    });
    expect(headersFor("a.example/sitemap-2.xml", info)).toEqual({
      contentType: "application/xml",
      cacheControl: "public, max-age=300",
    });
    expect(headersFor("a.example/feed.atom", info)).toEqual({
      contentType: "application/atom+xml",
      cacheControl: "public, max-age=300",
    });
    // The browse index changes with the pages it lists, under the same names: as short-lived.
    expect(headersFor("a.example/browse/cards/0.js", info)).toEqual({
      contentType: "text/javascript; charset=utf-8",
      cacheControl: "public, max-age=300",
    });
    // A folder once named pagefind is no longer special; an unknown type is bytes.
    expect(headersFor("a.example/pagefind/fragment/en_1a2b.pf_fragment", info)).toEqual({
      contentType: "application/octet-stream",
      cacheControl: "public, max-age=300",
    });
    expect(headersFor("a.example/_api/export/export_excel.xlsx", info)).toEqual({
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      cacheControl: "public, max-age=300",
      contentDisposition: 'attachment; filename="export_excel-a.example-2026-11-20.xlsx"',
    });
    // The MARC files: their own types (not .xml's application/xml), the spreadsheet's name.
    expect(headersFor("a.example/_api/export/export_excel.mrc", info)).toEqual({
      contentType: "application/marc",
      cacheControl: "public, max-age=300",
      contentDisposition: 'attachment; filename="export_excel-a.example-2026-11-20.mrc"',
    });
    expect(headersFor("a.example/_api/export/export_excel.xml", info)).toEqual({
      contentType: "application/marcxml+xml",
      cacheControl: "public, max-age=300",
      contentDisposition: 'attachment; filename="export_excel-a.example-2026-11-20.xml"',
    });
    // A file of the same shape outside the exports is typed by its extension alone.
    expect(headersFor("a.example/sitemap.xml", info)).toEqual({
      contentType: "application/xml",
      cacheControl: "public, max-age=300",
    });
  });

  it("sorts files into media, pages and entry documents", () => {
    expect(phaseOf("img.example/b/x-480.jpeg", info)).toBe("media");
    expect(phaseOf("a.example/_api/list/api/-year/1.json", info)).toBe("entry");
    expect(phaseOf("a.example/_api/list/api/-year/last.json", info)).toBe("entry");
    expect(phaseOf("a.example/_api/list/api/-year/11.json", info)).toBe("pages");
    expect(phaseOf("a.example/index.html", info)).toBe("entry");
    expect(phaseOf("b.example/cat/index.html", info)).toBe("entry");
    expect(phaseOf("b.example/index.html", info)).toBe("pages");
    expect(phaseOf("a.example/audiovisual-detail/1/x/index.html", info)).toBe("pages");
    expect(phaseOf("_catalogue/build.json", info)).toBe("entry");
  });
});

describe("plan", () => {
  const files = {
    "_catalogue/build.json": "b1",
    "a.example/_api/list/plain/name/1.json": "p1",
    "a.example/_api/list/plain/name/2.json": "p2",
    "a.example/media/x-480.jpeg": "m1",
    "a.example/index.html": "h1",
  };

  it("uploads everything into an empty target, media first and entry documents last", () => {
    const plan = makePlan(source(files), stateOf(new Map()), anything);
    expect(plan.uploads.map((u) => u.file.path)).toEqual([
      "a.example/media/x-480.jpeg",
      "a.example/_api/list/plain/name/2.json",
      "a.example/_api/list/plain/name/1.json",
      "a.example/index.html",
      "_catalogue/build.json",
    ]);
    expect(plan.uploads.every((u) => u.reason === "new")).toBe(true);
    expect(plan.bytes).toBe(10);
  });

  it("skips what the target holds with the same bytes and headers; says why for the rest", () => {
    const src = source(files);
    const held = (md5s: Record<string, string>) =>
      new Map(Object.entries(md5s).map(([rel, md5]) => [rel, { size: md5.length, md5 }]));
    const published = new Map(
      src.map((f) => [
        f.path,
        { size: f.size, md5: f.md5, contentType: f.contentType, cacheControl: f.cacheControl },
      ]),
    );
    published.set("a.example/index.html", {
      ...published.get("a.example/index.html")!,
      cacheControl: "no-store",
    });
    const state = stateOf(
      held({ ...files, "a.example/_api/list/plain/name/2.json": "zz", "a.example/old.json": "o1" }),
      published,
    );
    state.held.delete("a.example/media/x-480.jpeg");
    const plan = makePlan(src, state, anything);
    expect(plan.uploads.map((u) => [u.file.path, u.reason])).toEqual([
      ["a.example/media/x-480.jpeg", "new"],
      ["a.example/_api/list/plain/name/2.json", "changed"],
      ["a.example/index.html", "headers"],
    ]);
    expect(plan.skipped).toBe(2);
    expect(plan.deletes).toEqual(["a.example/old.json"]);
  });

  it("re-uploads same bytes when no manifest says how they were stored", () => {
    const plan = makePlan(
      source(files),
      stateOf(new Map(Object.entries(files).map(([rel, md5]) => [rel, { size: 2, md5 }]))),
      anything,
    );
    expect(plan.uploads.every((u) => u.reason === "headers")).toBe(true);
  });

  it("puts new files before changed ones: a changed page may link to a new one", () => {
    const src = source({
      "a.example/_api/list/plain/name/2.json": "p2",
      "a.example/_api/list/plain/name/3.json": "p3",
      "a.example/_api/detail/9.json": "d9",
    });
    const plan = makePlan(
      src,
      stateOf(new Map([["a.example/_api/list/plain/name/2.json", { size: 2, md5: "old" }]])),
      anything,
    );
    expect(plan.uploads.map((u) => [u.file.path, u.reason])).toEqual([
      ["a.example/_api/detail/9.json", "new"],
      ["a.example/_api/list/plain/name/3.json", "new"],
      ["a.example/_api/list/plain/name/2.json", "changed"],
    ]);
  });

  it("deletes only what the scope may delete, and counts what the records knew", () => {
    const held = new Map([
      ["a.example/x.json", { size: 1, md5: "x" }],
      ["b.example/y.json", { size: 1, md5: "y" }],
      ["a.example/stray", { size: 1, md5: "s" }],
    ]);
    const plan = makePlan(
      source({}),
      stateOf(held, new Map(), ["a.example/x.json", "b.example/y.json", "a.example/gone.json"]),
      (rel) => rel.startsWith("a.example/"),
    );
    expect(plan.deletes).toEqual(["a.example/gone.json", "a.example/stray", "a.example/x.json"]);
    expect(plan.recordedDeletes).toBe(2);
    expect(plan.recorded).toBe(3);
  });

  it("guards deletes: an explicit --max-deletes at the limit passes, one more refuses", () => {
    const plan = makePlan(
      source({}),
      stateOf(
        new Map([
          ["a", { size: 1, md5: "x" }],
          ["b", { size: 1, md5: "y" }],
        ]),
      ),
      anything,
    );
    expect(() => checkDeletes(plan, 2, "T")).not.toThrow();
    expect(() => checkDeletes(plan, 1, "T")).toThrow(
      "publishing would delete 2 files from T, more than --max-deletes 1",
    );
  });

  it("lets routine churn through without --max-deletes: recorded files, up to half of them", () => {
    const recorded = Array.from({ length: 4000 }, (_, i) => `a.example/_api/detail/${i}.json`);
    const files = Object.fromEntries(recorded.slice(0, 2000).map((rel) => [rel, "x"]));
    const held = new Map(recorded.map((rel) => [rel, { size: 1, md5: "x" }] as const));
    // 2,000 of 4,000 recorded files go (a night's churn is a few percent): allowed, even past 500.
    const half = makePlan(source(files), stateOf(held, new Map(), recorded), anything);
    expect(half.deletes).toHaveLength(2000);
    expect(() => checkDeletes(half, undefined, "T")).not.toThrow();
    // One more than half (a wrong --dir: most of the target would go): refused, with the way to allow it.
    const most = makePlan(
      source(Object.fromEntries(recorded.slice(0, 1999).map((rel) => [rel, "x"]))),
      stateOf(held, new Map(), recorded),
      anything,
    );
    expect(() => checkDeletes(most, undefined, "T")).toThrow(
      "publishing would delete 2001 of the 4000 files recorded at T (more than half); nothing was changed",
    );
    expect(() => checkDeletes(most, undefined, "T")).toThrow("--max-deletes 2001 to allow it");
    expect(() => checkDeletes(most, 2001, "T")).not.toThrow();
  });

  it("stops deleting files no record lists past 500 (a wrong --to), unless --max-deletes allows it", () => {
    const held = new Map(
      Array.from({ length: 501 }, (_, i) => [`someone/else/${i}`, { size: 1, md5: "z" }] as const),
    );
    const plan = makePlan(source({}), stateOf(held), anything);
    expect(plan.recordedDeletes).toBe(0);
    expect(() => checkDeletes(plan, undefined, "T")).toThrow(
      "publishing would delete 501 files from T that no publish recorded (more than 500)",
    );
    held.delete("someone/else/0");
    expect(() =>
      checkDeletes(makePlan(source({}), stateOf(held), anything), undefined, "T"),
    ).not.toThrow();
    expect(() => checkDeletes(plan, 501, "T")).not.toThrow();
  });
});
