import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detailPath, errorPath, exportPath, listPagePath } from "../../src/api/layout.ts";
import { LIMITS } from "../../src/content/row-limits.ts";
import { FILES } from "../../src/content/csv-files.ts";
import { UserError } from "../../src/errors.ts";
import { BUILD_INFO_PATH, INPUTS_PATH, MANIFEST_PATH } from "../../src/output/catalogue-paths.ts";
import type { BuildInfo, DomainInfo } from "../../src/output/build-info.ts";
import { pickEncoding } from "../../src/serve/compress.ts";
import { rangeOf } from "../../src/serve/range.ts";
import { configDir, parseListen } from "../../src/serve/listen.ts";
import { caddyConfig } from "../../src/serve/caddy.ts";
import { nginxConfig, nginxSnippets } from "../../src/serve/nginx.ts";
import { cloudFrontFunction, responseHeadersPolicy } from "../../src/edge/cloudfront.ts";
import { netlifyRules } from "../../src/edge/netlify.ts";
import { normalizePath, resolve } from "../../src/serve/resolve.ts";
import {
  domainRoutes,
  hostTable,
  listTarget,
  queryValue,
  selectHost,
} from "../../src/serve/routes.ts";

const domain = (name: string, base = "", media = `${name}${base}/media`): DomainInfo => ({
  domain: name,
  name,
  base_url: `https://${name}${base}`,
  media_url: `https://${media}`,
  locale: "es",
  default_ordering: "name",
  base_path: base,
  media_folder: media,
  count: 30,
  total_pages: 2,
  exports: { export_excel: "a.xlsx", export_up_movies: "b.xlsx", export_down_movies: "c.xlsx" },
  site: false,
});
const info = (...domains: DomainInfo[]): BuildInfo => ({
  generator: "catalogue",
  version: 1,
  date: "2026-11-20",
  domains: domains.map((d, position) => ({ ...d, position, date: "2026-11-20" })),
});

/** The contract's reading of a query string, written plainly: split on &, first `name` or `name=` wins. */
function reference(query: string, name: string): string | undefined {
  for (const part of query.split("&")) {
    if (part === name) return "";
    if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  }
  return undefined;
}

describe("query parameters", () => {
  it("finds the first occurrence, raw, exactly as a plain split would", () => {
    const token = fc.constantFrom(
      "page",
      "format",
      "ordering",
      "xpage",
      "pagex",
      "PAGE",
      "page=",
      "=",
      "",
      "2",
      "last",
      "%31",
      "a=b=c",
      "page=1=2",
    );
    const query = fc.array(token, { maxLength: 8 }).map((parts) => parts.join("&"));
    fc.assert(
      fc.property(query, fc.constantFrom("page", "format", "ordering"), (q, name) => {
        expect(queryValue(q, name)).toBe(reference(q, name));
      }),
      { numRuns: 2000 },
    );
  });

  it("maps whitelisted values to folders and everything else to the contract's answer", () => {
    expect(listTarget("")).toEqual({ file: "/_api/list/plain/default/1.json" });
    expect(listTarget("page=last&ordering=-year&format=json")).toEqual({
      file: "/_api/list/json/-year/last.json",
    });
    expect(listTarget("ordering=bogus&page=12")).toEqual({
      file: "/_api/list/plain/default/12.json",
    });
    expect(listTarget("format=xml&page=0")).toEqual({ error: "not-found" });
    for (const page of ["0", "01", "-1", "abc", "", "1e3", "1234567890", "../1"]) {
      expect(listTarget(`page=${page}`), page).toEqual({ error: "invalid-page" });
    }
  });

  it("never lets a query value into a file path unless it is a whitelisted word or digits", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        (f, o, p) => {
          const target = listTarget(`format=${f}&ordering=${o}&page=${p}`);
          if ("file" in target)
            expect(target.file).toMatch(
              /^\/_api\/list\/(plain|api|json)\/(default|name|-name|year|-year)\/([1-9][0-9]{0,8}|last)\.json$/,
            );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("paths", () => {
  it("decodes and resolves dot segments, refusing what cannot be a path of the build", () => {
    expect(normalizePath("/a/./b//c/")).toBe("/a/b/c/");
    expect(normalizePath("/a/b/../c")).toBe("/a/c");
    expect(normalizePath("/a/%2e%2e/c")).toBe("/c");
    expect(normalizePath("/a/..")).toBe("/");
    expect(normalizePath("/%61pi/")).toBe("/api/");
    expect(normalizePath("/")).toBe("/");
    for (const bad of [
      "/..",
      "/%2e%2e/",
      "/..%2f..%2fetc/passwd",
      "/a%00",
      "/%ZZ",
      "/%",
      "relative",
    ])
      expect(normalizePath(bad), bad).toBeNull();
  });

  it("routes a request of each kind", () => {
    const [host] = hostTable(info(domain("a.example", "/cat")));
    const get = (url: string, method = "GET") => resolve(host!, { method, url });
    expect(get("/cat/api/v1/videos/audiovisuals/?page=2")).toMatchObject({
      kind: "file",
      file: "/_api/list/plain/default/2.json",
      missing: "invalid-page",
    });
    expect(get("/cat/api/v1/videos/audiovisuals/7/")).toMatchObject({
      kind: "file",
      file: "/_api/detail/7.json",
      missing: "not-found",
    });
    expect(get("/cat/api/v1/videos/audiovisuals/export_up_movies/")).toMatchObject({
      kind: "file",
      file: "/_api/export/export_up_movies.xlsx",
    });
    // Below each spreadsheet, its MARC files, with their types and the spreadsheet's name.
    expect(get("/cat/api/v1/videos/audiovisuals/export_up_movies/marc/")).toMatchObject({
      kind: "file",
      file: "/_api/export/export_up_movies.mrc",
      headers: {
        "Content-Type": "application/marc",
        "Content-Disposition": 'attachment; filename="b.mrc"',
      },
    });
    expect(get("/cat/api/v1/videos/audiovisuals/export_down_movies/marcxml/")).toMatchObject({
      kind: "file",
      file: "/_api/export/export_down_movies.xml",
      headers: {
        "Content-Type": "application/marcxml+xml",
        "Content-Disposition": 'attachment; filename="c.xml"',
      },
    });
    expect(get("/cat/api/v1/videos/audiovisuals/export_up_movies/marc")).toMatchObject({
      kind: "redirect",
      location: "/cat/api/v1/videos/audiovisuals/export_up_movies/marc/",
    });
    expect(get("/cat/api/v1/videos/audiovisuals/export_up_movies/iso2709/")).toMatchObject({
      kind: "body",
      status: 404,
    });
    // Redirects on API paths are API answers: readable across origins.
    const cors = { headers: { "Access-Control-Allow-Origin": "*" } };
    expect(get("/cat/api/v1/videos/audiovisuals?a=1")).toMatchObject({
      kind: "redirect",
      location: "/cat/api/v1/videos/audiovisuals/?a=1",
      ...cors,
    });
    expect(get("/cat/api/v1/videos/audiovisuals/7")).toMatchObject({
      kind: "redirect",
      location: "/cat/api/v1/videos/audiovisuals/7/",
      ...cors,
    });
    expect(get("/cat/api/v1/openapi.json")).toMatchObject({
      kind: "file",
      file: "/cat/api/v1/openapi.json",
      ...cors,
    });
    expect(get("/cat/api/v1/videos/audiovisuals/x/")).toMatchObject({
      kind: "body",
      status: 404,
      body: '{"detail":"Not found."}',
    });
    expect(get("/api/v1/videos/audiovisuals/")).toMatchObject({ kind: "static" });
    expect(get("/_api/list/plain/default/1.json")).toEqual({ kind: "not-found" });
    expect(get("/_catalogue")).toEqual({ kind: "not-found" });
    expect(get("/cat/media/x.webp")).toEqual({
      kind: "static",
      path: "/cat/media/x.webp",
      cache: "public, max-age=31536000, immutable",
    });
    expect(get("/cat/", "OPTIONS")).toMatchObject({
      kind: "body",
      status: 200,
      headers: {
        Allow: "GET, HEAD, OPTIONS",
        "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      },
    });
    expect(get("/cat/", "PUT")).toMatchObject({
      kind: "body",
      status: 405,
      body: '{"detail":"Method \\"PUT\\" not allowed."}',
      ...cors,
    });
    expect(get(`/?${"x".repeat(9000)}`)).toEqual({ kind: "too-long" });
  });
});

describe("the output's layout, as the servers route to it", () => {
  const [host] = hostTable(info(domain("a.example", "/cat")));
  const get = (url: string) => resolve(host!, { method: "GET", url });
  const api = "/cat/api/v1/videos/audiovisuals/";

  it("answers a retrieve URL for exactly the ids a content row allows", () => {
    const works = FILES.audiovisuals.schema.in.shape.id;
    for (const id of [
      "1",
      "9".repeat(LIMITS.idDigits),
      "1" + "0".repeat(LIMITS.idDigits),
      "0",
      "07",
    ]) {
      const allowed = works.safeParse(id).success;
      const answer = get(`${api}${id}/`);
      if (allowed)
        expect(answer, id).toMatchObject({ kind: "file", file: `/_api/detail/${id}.json` });
      else expect(answer, id).toMatchObject({ kind: "body", status: 404 });
    }
  });

  it("reads the files the build writes where it writes them, and never serves them as themselves", () => {
    const inDomain = (written: string) => written.slice("a.example".length);
    expect(get(`${api}?format=json&ordering=-year&page=3`)).toMatchObject({
      file: inDomain(listPagePath("a.example", "json", "-year", 3)),
    });
    expect(get(`${api}?page=last`)).toMatchObject({
      file: inDomain(listPagePath("a.example", "plain", "default", "last")),
    });
    expect(get(`${api}12/`)).toMatchObject({ file: inDomain(detailPath("a.example", 12)) });
    expect(get(`${api}export_excel/`)).toMatchObject({
      file: inDomain(exportPath("a.example", "export_excel")),
    });
    for (const written of [
      inDomain(listPagePath("a.example", "plain", "default", 1)),
      inDomain(errorPath("a.example", "not-found")),
      `/${MANIFEST_PATH}`,
      `/${BUILD_INFO_PATH}`,
      `/${INPUTS_PATH}`,
    ])
      expect(get(written), written).toEqual({ kind: "not-found" });
  });
});

describe("hosts", () => {
  it("lists domains first, then media-only hosts, each media folder once", () => {
    const table = hostTable(
      info(
        domain("a.example"),
        domain("b.example", "/c", "m.example/covers"),
        domain("c.example", "", "m.example/covers"),
      ),
    );
    expect(table.map((h) => [h.host, h.domain?.info.domain ?? null, h.media])).toEqual([
      ["a.example", "a.example", ["/media/"]],
      ["b.example", "b.example", []],
      ["c.example", "c.example", []],
      ["m.example", null, ["/covers/"]],
    ]);
  });

  it("gives each host its headers: a domain's policies (HSTS where https, its media host in img-src), nosniff on a media host", () => {
    const http = {
      ...domain("b.example", "/c", "m.example/covers"),
      base_url: "http://b.example/c",
      media_url: "https://m.example/covers",
    };
    const [a, b, m] = hostTable(info(domain("a.example"), http));
    expect(a!.headers).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Strict-Transport-Security": "max-age=31536000",
    });
    expect(a!.headers["Content-Security-Policy"]).toMatch(/img-src 'self' data:;/);
    expect(b!.headers["Strict-Transport-Security"]).toBeUndefined();
    expect(b!.headers["Content-Security-Policy"]).toMatch(
      /img-src 'self' data: https:\/\/m\.example;/,
    );
    expect(m!.headers).toEqual({
      "X-Content-Type-Options": "nosniff",
      "Strict-Transport-Security": "max-age=31536000",
    });
  });

  it("selects by Host without case, port or trailing dot; unknown hosts get the first domain", () => {
    const table = hostTable(info(domain("a.example"), domain("b.example")));
    expect(selectHost(table, "B.Example:8080").host).toBe("b.example");
    expect(selectHost(table, "b.example.").host).toBe("b.example");
    expect(selectHost(table, "evil.example").host).toBe("a.example");
    expect(selectHost(table, undefined).host).toBe("a.example");
  });

  it("asserts base paths a server configuration can match literally (validate refused the others)", () => {
    expect(() => domainRoutes(domain("a.example", "/caf%C3%A9"))).toThrow(
      /^bug: .*passed validate/,
    );
    expect(() => domainRoutes(domain("a.example", "/a b"))).toThrow(/^bug: .*passed validate/);
    expect(() => domainRoutes(domain("a.example", "/a$b"))).toThrow(/^bug: .*passed validate/);
    expect(() => domainRoutes(domain("a.example", "/a//b"))).toThrow(/^bug: .*passed validate/);
    expect(domainRoutes(domain("a.example", "/cataleg/v2")).api).toBe(
      "/cataleg/v2/api/v1/videos/audiovisuals/",
    );
  });
});

describe("values written into a server's configuration", () => {
  // What validate refuses (content/schema.ts, site/policy.ts), as build.json could still carry it
  // when written by hand or by an older version: every writer stops, none writes it.
  const writers: [string, (b: BuildInfo) => unknown][] = [
    ["nginx", (b) => nginxConfig(b, "/srv/dist", { address: "127.0.0.1", port: 80 })],
    ["nginx snippets", (b) => nginxSnippets(b, "/srv/dist", b.domains[0]!.domain)],
    ["caddy", (b) => caddyConfig(b, "/srv/dist", { address: "127.0.0.1", port: 80 })],
    ["netlify", (b) => netlifyRules(b, b.domains[0]!.domain)],
    ["cloudfront function", (b) => cloudFrontFunction(b)],
    ["cloudfront headers", (b) => responseHeadersPolicy(b)],
    ["routing table (serve, the Worker)", (b) => hostTable(b)],
  ];
  const unsafe: [string, DomainInfo][] = [
    [
      "an nginx variable",
      { ...domain("a.example"), content_security: { "img-src": ["https://x.example/$args"] } },
    ],
    [
      "a Caddy placeholder",
      { ...domain("a.example"), content_security: { "img-src": ["https://x.example/{env.HOME}"] } },
    ],
    [
      "a backslash",
      { ...domain("a.example"), content_security: { "img-src": ["https://x.example/a\\b"] } },
    ],
    [
      "a line break",
      {
        ...domain("a.example"),
        content_security: { "img-src": ["https://x.example/\r\nSet-Cookie: a"] },
      },
    ],
    [
      "a NUL",
      { ...domain("a.example"), content_security: { "img-src": ["https://x.example/\u0000"] } },
    ],
    [
      "non-ASCII",
      { ...domain("a.example"), content_security: { "img-src": ["https://x.example/€"] } },
    ],
    ["a media path with a semicolon", domain("a.example", "", "a.example/m;x")],
    ["a media host with a port", domain("a.example", "", "a.example:8443/m")],
    ["a domain in capitals", { ...domain("a.example"), domain: "A.example" }],
  ];

  for (const [name, bad] of unsafe) {
    it(`asserts: ${name} that passed validate is a bug in every writer`, () => {
      for (const [writer, write] of writers) {
        // The response headers policy holds headers only: no host or path.
        if (writer === "cloudfront headers" && bad.content_security === undefined) continue;
        expect(() => write(info(bad)), writer).toThrow(/^bug: .*passed validate/);
      }
    });
  }

  it("writes what validate lets through as it is: quotes escaped for each server, nothing else", () => {
    const fine = {
      ...domain("a.example"),
      content_security: { "img-src": ["https://x.example/it's/(x)!*+=@:/%7Bq%7D"] },
    };
    const source = "https://x.example/it's/(x)!*+=@:/%7Bq%7D";
    for (const [writer, write] of writers) expect(() => write(info(fine)), writer).not.toThrow();
    const nginx = nginxConfig(info(fine), "/srv/dist", { address: "127.0.0.1", port: 80 });
    expect(nginx).toContain(`img-src 'self' data: ${source};`.replaceAll("'", "\\'"));
    const caddy = caddyConfig(info(fine), "/srv/dist", { address: "127.0.0.1", port: 80 });
    expect(caddy).toContain(`img-src 'self' data: ${source};`);
    // A quote inside a Caddy token is escaped; Content-Disposition has two.
    expect(caddy).toContain(`Content-Disposition "attachment; filename=\\"a.xlsx\\""`);
    expect(netlifyRules(info(fine), "a.example").headers).toContain(
      `img-src 'self' data: ${source};`,
    );
  });
});

describe("command-line values", () => {
  it("parses --listen", () => {
    expect(parseListen("127.0.0.1:8080")).toEqual({ address: "127.0.0.1", port: 8080 });
    expect(parseListen("[::1]:80")).toEqual({ address: "[::1]", port: 80 });
    for (const bad of ["8080", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "a;b:80", "x:80 ssl"])
      expect(() => parseListen(bad), bad).toThrow(UserError);
  });

  it("keeps --dir as given (not resolved), refusing characters a configuration cannot hold", () => {
    expect(configDir("/srv/catalogue/dist")).toBe("/srv/catalogue/dist");
    for (const bad of ["/srv/my dist", "/srv/$x", "/srv/a;b", "/srv/{x}", '/srv/"x'])
      expect(() => configDir(bad), bad).toThrow(UserError);
  });

  it("picks brotli, then gzip, honouring q=0", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip, br;q=0")).toBe("gzip");
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("*;q=0, gzip")).toBe("gzip");
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe("ranges", () => {
  it("reads one byte range of a file, a suffix, or none; If-Range only with the file's strong ETag", () => {
    const etag = '"abc"';
    const of = (
      range: string | undefined,
      ifRange?: string,
      size = 100,
      tag: string | null = etag,
    ) => rangeOf(range, ifRange, size, tag);
    expect(of(undefined)).toEqual({ kind: "whole" });
    expect(of("bytes=0-0")).toEqual({
      kind: "part",
      start: 0,
      end: 0,
      contentRange: "bytes 0-0/100",
    });
    expect(of("bytes=10-")).toMatchObject({ start: 10, end: 99 });
    expect(of("bytes=90-500")).toMatchObject({
      start: 90,
      end: 99,
      contentRange: "bytes 90-99/100",
    });
    expect(of("bytes=-10")).toMatchObject({ start: 90, end: 99 });
    expect(of("bytes=-500")).toMatchObject({ start: 0, end: 99 });
    expect(of("bytes=100-")).toEqual({ kind: "unsatisfiable", contentRange: "bytes */100" });
    expect(of("bytes=-0")).toEqual({ kind: "unsatisfiable", contentRange: "bytes */100" });
    expect(of("bytes=0-", undefined, 0)).toEqual({
      kind: "unsatisfiable",
      contentRange: "bytes */0",
    });
    // Several ranges, another unit, a reversed or malformed range: the whole file (RFC 9110 14.2).
    for (const range of [
      "bytes=0-1,5-6",
      "items=0-1",
      "bytes=5-1",
      "bytes=-",
      "bytes=a-b",
      "bytes 0-1",
    ])
      expect(of(range), range).toEqual({ kind: "whole" });
    expect(of("bytes=0-9", etag)).toMatchObject({ kind: "part" });
    for (const [ifRange, tag] of [
      ['"other"', etag],
      [`W/${etag}`, etag],
      [etag, `W/${etag}`],
      ["Tue, 01 Jan 2030 00:00:00 GMT", etag],
      [etag, null],
    ] as const) {
      expect(of("bytes=0-9", ifRange, 100, tag), `${ifRange} vs ${tag}`).toEqual({ kind: "whole" });
    }
  });
});
