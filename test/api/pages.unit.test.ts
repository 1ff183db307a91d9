import { describe, expect, it } from "vitest";
import { FORMAT_DIRS, ORDERING_DIRS, type FormatDir } from "../../src/api/layout.ts";
import { pageLink, PageLinks } from "../../src/api/links.ts";
import { apiFiles, type OutputFile } from "../../src/api/pages.ts";
import { domainView, type DomainView, type ListedWork } from "../../src/model/domain-view.ts";
import { catalogueOf, director, DOMAIN, work } from "../helpers/model.ts";

const T = "2026-11-20";
/** A file's bytes as text, whether it came whole or in parts. */
const text = (file: OutputFile) => {
  const data = "key" in file ? file.produce() : file.data;
  const parts = typeof data === "string" || data instanceof Uint8Array ? [data] : data;
  return Buffer.concat(
    parts.flatMap((part) =>
      typeof part === "string"
        ? [Buffer.from(part)]
        : part instanceof Uint8Array
          ? [part]
          : part.parts,
    ),
  ).toString("utf8");
};
const imageUrl = (rel: string) => `https://uno.example/media/${rel.replace(/\W/g, "_")}.jpeg`;
/** Stand-ins for the works' inputs digests (src/domain-inputs.ts): one per work, by its fields. */
const digestsOf = (view: DomainView) =>
  new Map<ListedWork, string>(view.orders.name.map((listed) => [listed, JSON.stringify(listed)]));
const filesOfView = (view: DomainView, digests = digestsOf(view)): OutputFile[] =>
  apiFiles(view, imageUrl, digests).flatMap((run) => [...run]);

function filesOf(count: number, domain = DOMAIN): Map<string, string> {
  const works = Array.from({ length: count }, (_, i) => work(i + 1));
  const files = filesOfView(domainView(catalogueOf(works, { domain }), domain, T));
  return new Map(files.map((f) => [f.path, text(f)]));
}
const page = (files: Map<string, string>, format: string, ordering: string, n: number | "last") =>
  JSON.parse(files.get(`uno.example/_api/list/${format}/${ordering}/${n}.json`)!);

describe("listing pages", () => {
  it.each([
    [0, 1, [0]],
    [1, 1, [1]],
    [20, 1, [20]],
    [21, 2, [20, 1]],
    [40, 2, [20, 20]],
    [347, 18, [...Array(17).fill(20), 7]],
  ])("%i works make %i page(s) of sizes %j in every format and ordering", (count, pages, sizes) => {
    const files = filesOf(count);
    for (const format of Object.keys(FORMAT_DIRS)) {
      for (const ordering of ORDERING_DIRS) {
        const got = sizes.map((_, i) => page(files, format, ordering, i + 1));
        expect(got.map((p) => p.results.length)).toEqual(sizes);
        expect(got.every((p) => p.count === count && p.total_pages === pages)).toBe(true);
        expect(files.has(`uno.example/_api/list/${format}/${ordering}/${pages + 1}.json`)).toBe(
          false,
        );
        expect(page(files, format, ordering, "last")).toEqual(page(files, format, ordering, pages));
        // Every listed work appears exactly once across the pages of an ordering.
        const ids = got.flatMap((p) => p.results.map((r: { id: number }) => r.id));
        expect(new Set(ids).size).toBe(count);
      }
    }
  });

  it("writes the envelope and element keys in the contract's order", () => {
    const works = [work(1, { director_id: 3 }), work(2)];
    const domain = DOMAIN;
    const view = domainView(
      catalogueOf(works, { directors: [director(3, { photo: "photos/d.png", show_img: true })] }),
      domain,
      T,
    );
    const files = new Map(filesOfView(view).map((f) => [f.path, text(f)]));
    const body = JSON.parse(files.get("uno.example/_api/list/plain/default/1.json")!);
    expect(Object.keys(body)).toEqual(["links", "trans_title", "count", "total_pages", "results"]);
    expect(Object.keys(body.links)).toEqual(["next", "previous"]);
    expect(body.trans_title).toBeNull();
    expect(Object.keys(body.results[0])).toEqual([
      "id",
      "name",
      "cover",
      "director",
      "audiovisual_type",
      "is_new",
      "progress_loan_user",
      "streaming",
      "slug",
      "status_global",
    ]);
    expect(Object.keys(body.results[0].director)).toEqual([
      "id",
      "name",
      "description",
      "description_es",
      "description_en",
      "description_ca",
      "description_gl",
      "description_eu",
      "description_va",
      "description_fr",
      "slug",
      "photo",
      "show_img",
    ]);
    expect(body.results[0]).toMatchObject({
      cover: imageUrl("covers/a.png"),
      progress_loan_user: null,
      streaming: {},
      status_global: 1,
    });
    // description: the CSV's own column is empty, so the domain's language (es) stands in.
    expect(body.results[0].director).toMatchObject({
      description: "Bio 3",
      photo: imageUrl("photos/d.png"),
      show_img: true,
    });
    expect(body.results[1].director).toBeNull();
    const detail = JSON.parse(files.get("uno.example/_api/detail/1.json")!);
    expect(Object.keys(detail)).toEqual([
      ...Object.keys(body.results[0]),
      "year",
      "duration",
      "created",
      "expire",
    ]);
    expect(detail).toMatchObject({ year: 1901, duration: 90, created: "2020-01-01", expire: null });
    // The page is compact JSON, as DRF renders it, and the element bytes are identical in both.
    expect(files.get("uno.example/_api/list/plain/default/1.json")).toContain(
      JSON.stringify(body.results[0]),
    );
  });

  it("builds links for every format and ordering as the seed's rules 2-5 say", () => {
    const files = filesOf(45);
    const base = "https://uno.example/api/v1/videos/audiovisuals/";
    for (const format of Object.keys(FORMAT_DIRS) as FormatDir[]) {
      for (const ordering of ORDERING_DIRS) {
        const query = [
          FORMAT_DIRS[format] && `format=${FORMAT_DIRS[format]}`,
          ordering !== "default" && `ordering=${ordering}`,
        ].filter(Boolean);
        const link = (n: number) => base + "?" + [...query, `page=${n}`].join("&");
        const first = page(files, format, ordering, 1);
        const second = page(files, format, ordering, 2);
        const third = page(files, format, ordering, 3);
        expect(first.links).toEqual({ next: link(2), previous: null });
        // Rule 5: page 2's previous omits `page` (and the `?` when nothing is left).
        expect(second.links).toEqual({
          next: link(3),
          previous: query.length ? `${base}?${query.join("&")}` : base,
        });
        expect(third.links).toEqual({ next: null, previous: link(2) });
      }
    }
    expect(page(files, "api", "-name", 2).links.previous).toBe(`${base}?format=api&ordering=-name`);
    expect(page(files, "plain", "default", 3).links.previous).toBe(`${base}?page=2`);
  });

  it("puts the domain's base path into links", () => {
    const domain = { ...DOMAIN, base_url: "https://uno.example/cataleg" };
    expect(pageLink(domain, "json", "year", 4)).toBe(
      "https://uno.example/cataleg/api/v1/videos/audiovisuals/?format=json&ordering=year&page=4",
    );
  });

  it("writes each page's link in JSON as JSON.stringify of pageLink, for every format, ordering and page", () => {
    for (const base_url of [
      "https://uno.example",
      "https://uno.example/catàleg/d'arts",
      "http://127.0.0.1:8080/a/b",
    ]) {
      const domain = { ...DOMAIN, base_url };
      for (const format of ["plain", "api", "json"] as const) {
        for (const ordering of ["default", "name", "-name", "year", "-year"] as const) {
          const links = new PageLinks(domain, format, ordering);
          for (const page of [1, 2, 3, 9, 10, 11, 99, 100, 1234])
            expect(links.json(page)).toBe(JSON.stringify(pageLink(domain, format, ordering, page)));
        }
      }
    }
  });

  it("orders the default folder by the domain's default ordering, links without ordering", () => {
    const domain = { ...DOMAIN, default_ordering: "-year" as const };
    const works = Array.from({ length: 30 }, (_, i) => work(i + 1, { year: 1900 + i }));
    const files = new Map(
      filesOfView(domainView(catalogueOf(works, { domain }), domain, T)).map((f) => [
        f.path,
        text(f),
      ]),
    );
    const byDefault = JSON.parse(files.get("uno.example/_api/list/plain/default/1.json")!);
    const byYearDesc = JSON.parse(files.get("uno.example/_api/list/plain/-year/1.json")!);
    expect(byDefault.results).toEqual(byYearDesc.results);
    expect(byDefault.results[0].year).toBe(undefined);
    expect(byDefault.results[0].id).toBe(30);
    expect(byDefault.links.next).toBe("https://uno.example/api/v1/videos/audiovisuals/?page=2");
    expect(byYearDesc.links.next).toBe(
      "https://uno.example/api/v1/videos/audiovisuals/?ordering=-year&page=2",
    );
  });

  it("keys each file by its works' digests: another digest changes the keys of exactly the files that show the work", () => {
    const works = Array.from({ length: 45 }, (_, i) => work(i + 1, { year: 1900 + (i % 7) }));
    const view = domainView(catalogueOf(works), DOMAIN, T);
    const keys = (digests: Map<ListedWork, string>) =>
      new Map(
        filesOfView(view, digests).flatMap((f) => ("key" in f ? [[f.path, f.key] as const] : [])),
      );
    const digests = digestsOf(view);
    const before = keys(digests);
    expect(new Set(before.values()).size).toBeGreaterThan(45); // details and pages have keys of their own
    const changed = view.orders.name.find((listed) => listed.work.id === 17)!;
    digests.set(changed, "another digest");
    const after = keys(digests);
    const differ = [...before.keys()].filter((rel) => before.get(rel) !== after.get(rel));
    // Every file whose bytes hold work 17 (its retrieve document and the pages listing it), and no other.
    const holding = filesOfView(view)
      .filter(
        (f) =>
          "key" in f &&
          (f.path.includes("/detail/")
            ? f.path.endsWith("/17.json")
            : (JSON.parse(text(f)) as { results: { id: number }[] }).results.some(
                (r) => r.id === 17,
              )),
      )
      .map((f) => f.path);
    expect(differ.sort()).toEqual(holding.sort());
    expect(differ.length).toBeGreaterThan(4);
    // A missing digest is a bug, never a silent key.
    digests.delete(changed);
    expect(() => keys(digests)).toThrow(/no inputs digest for work 17/);
  });

  it("gives a path the same key only for the same bytes: another base address, another count", () => {
    const works = Array.from({ length: 45 }, (_, i) => work(i + 1, { year: 1900 + (i % 7) }));
    const keyed = (view: DomainView, digests = digestsOf(view)) =>
      new Map(
        filesOfView(view, digests).flatMap((f) =>
          "key" in f ? [[f.path, { key: f.key, bytes: text(f) }] as const] : [],
        ),
      );
    const base = domainView(catalogueOf(works), DOMAIN, T);
    const digests = digestsOf(base);
    const before = keyed(base, digests);
    const moved = { ...DOMAIN, base_url: "https://uno.example/cataleg" };
    // The same works (the same digests) under another address: every page's links change.
    const movedView = domainView(catalogueOf(works, { domain: moved }), moved, T);
    const movedDigests = new Map(
      movedView.orders.name.map((listed) => [
        listed,
        digests.get(base.orders.name.find((l) => l.work.id === listed.work.id)!)!,
      ]),
    );
    // One work fewer, at the end of every order but the name's: the counts of every page change.
    const fewer = domainView(catalogueOf(works.slice(0, 44)), DOMAIN, T);
    for (const after of [keyed(movedView, movedDigests), keyed(fewer)]) {
      let compared = 0;
      for (const [rel, { key, bytes }] of after) {
        const previous = before.get(rel);
        if (previous === undefined) continue;
        compared++;
        if (previous.key === key) expect(bytes, rel).toBe(previous.bytes);
        if (rel.includes("/_api/list/")) expect(previous.key, rel).not.toBe(key);
      }
      expect(compared).toBeGreaterThan(100);
    }
  });

  it("writes the error bodies DRF answers with", () => {
    const files = filesOf(1);
    expect(files.get("uno.example/_api/error/invalid-page.json")).toBe(
      '{"detail":"Invalid page."}',
    );
    expect(files.get("uno.example/_api/error/not-found.json")).toBe('{"detail":"Not found."}');
    expect(files.get("uno.example/_api/error/method-POST.json")).toBe(
      '{"detail":"Method \\"POST\\" not allowed."}',
    );
  });
});
