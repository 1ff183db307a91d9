import { describe, expect, it } from "vitest";
import type { BuildInfo, DomainInfo } from "../../src/output/build-info.ts";
import { headersFor } from "../../src/publish/headers.ts";
import { checkDeletes, makePlan } from "../../src/publish/plan.ts";
import { phaseOf, type Phase } from "../../src/publish/source.ts";
import type { SourceFile, TargetState } from "../../src/publish/target.ts";

const domain = (name: string, extra: Partial<DomainInfo> = {}): DomainInfo => ({
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
  ...extra,
});
const info: BuildInfo = {
  generator: "catalogue",
  version: 1,
  date: "2026-11-20",
  domains: [domain("a.example"), domain("b.example", { base_path: "/cat", media_url: "https://img.example/b", media_folder: "img.example/b" })],
};

function source(paths: Record<string, string>): { files: (SourceFile & { phase: Phase })[] } {
  return { files: Object.entries(paths).map(([path, md5]) => ({ path, size: md5.length, md5, abs: null, bytes: null, ...headersFor(path, info), phase: phaseOf(path, info) })) };
}

describe("headers", () => {
  it("sets type and caching per kind of file", () => {
    expect(headersFor("a.example/_api/list/plain/name/2.json", info)).toEqual({ contentType: "application/json", cacheControl: "public, max-age=300" });
    expect(headersFor("a.example/media/abc-480.jpeg", info)).toEqual({ contentType: "image/jpeg", cacheControl: "public, max-age=31536000, immutable" });
    expect(headersFor("img.example/b/abc-480.webp", info)).toEqual({ contentType: "image/webp", cacheControl: "public, max-age=31536000, immutable" });
    expect(headersFor("a.example/index.html", info).contentType).toBe("text/html; charset=utf-8");
    // What crawlers and feed readers ask for by name (the S3 object's type is what it is served with).
    expect(headersFor("a.example/robots.txt", info)).toEqual({ contentType: "text/plain; charset=utf-8", cacheControl: "public, max-age=300" });
    expect(headersFor("a.example/sitemap-2.xml", info)).toEqual({ contentType: "application/xml", cacheControl: "public, max-age=300" });
    expect(headersFor("a.example/feed.atom", info)).toEqual({ contentType: "application/atom+xml", cacheControl: "public, max-age=300" });
    expect(headersFor("a.example/pagefind/fragment/en_1a2b.pf_fragment", info)).toEqual({ contentType: "application/octet-stream", cacheControl: "public, max-age=60" });
    expect(headersFor("a.example/pagefind/pagefind.js", info).cacheControl).toBe("public, max-age=60");
    expect(headersFor("a.example/_api/export/export_excel.xlsx", info)).toEqual({
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      cacheControl: "public, max-age=300",
      contentDisposition: 'attachment; filename="export_excel-a.example-2026-11-20.xlsx"',
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
    const plan = makePlan(source(files), { files: new Map(), published: null });
    expect(plan.uploads.map((u) => u.file.path)).toEqual([
      "a.example/media/x-480.jpeg",
      "a.example/_api/list/plain/name/2.json",
      "_catalogue/build.json",
      "a.example/_api/list/plain/name/1.json",
      "a.example/index.html",
    ]);
    expect(plan.uploads.every((u) => u.reason === "new")).toBe(true);
    expect(plan.bytes).toBe(10);
  });

  it("skips what the target holds with the same bytes and headers; says why for the rest", () => {
    const src = source(files);
    const held = (md5s: Record<string, string>) => new Map(Object.entries(md5s).map(([rel, md5]) => [rel, { size: md5.length, md5 }]));
    const published = new Map(src.files.map((f) => [f.path, { size: f.size, md5: f.md5, contentType: f.contentType, cacheControl: f.cacheControl }]));
    published.set("a.example/index.html", { ...published.get("a.example/index.html")!, cacheControl: "no-store" });
    const state: TargetState = {
      files: held({ ...files, "a.example/_api/list/plain/name/2.json": "zz", "a.example/old.json": "o1" }),
      published,
    };
    state.files.delete("a.example/media/x-480.jpeg");
    const plan = makePlan(src, state);
    expect(plan.uploads.map((u) => [u.file.path, u.reason])).toEqual([
      ["a.example/media/x-480.jpeg", "new"],
      ["a.example/_api/list/plain/name/2.json", "changed"],
      ["a.example/index.html", "headers"],
    ]);
    expect(plan.skipped).toBe(2);
    expect(plan.deletes).toEqual(["a.example/old.json"]);
  });

  it("re-uploads same bytes when no manifest says how they were stored", () => {
    const plan = makePlan(source(files), { files: new Map(Object.entries(files).map(([rel, md5]) => [rel, { size: 2, md5 }])), published: null });
    expect(plan.uploads.every((u) => u.reason === "headers")).toBe(true);
  });

  it("never deletes the target's own manifest", () => {
    const plan = makePlan(source({}), { files: new Map([["_catalogue/published.json", { size: 1, md5: "x" }]]), published: null });
    expect(plan.deletes).toEqual([]);
  });

  it("guards deletes: at the limit passes, one more refuses", () => {
    const plan = makePlan(source({}), { files: new Map([["a", { size: 1, md5: "x" }], ["b", { size: 1, md5: "y" }]]), published: null });
    expect(() => checkDeletes(plan, 2, "T")).not.toThrow();
    expect(() => checkDeletes(plan, 1, "T")).toThrow("publishing would delete 2 files from T, more than --max-deletes 1");
  });
});
