import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudFrontFunction, responseHeadersPolicy } from "../../src/edge/cloudfront.ts";
import type { BuildInfo, DomainInfo } from "../../src/output/build-info.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { loadFunction } from "./harness.ts";

/**
 * `catalogue config cloudfront`: the files it writes, the function's limits, and single requests
 * through the function (the whole contract runs through it in test/serve/conformance.e2e.test.ts).
 */

const domain = (name: string, base: string, media: string, scheme = "https"): DomainInfo => ({
  domain: name,
  name,
  base_url: `${scheme}://${name}${base}`,
  media_url: `https://${media}`,
  locale: "es",
  default_ordering: "name",
  base_path: base,
  media_folder: media,
  count: 30,
  total_pages: 7,
  exports: { export_excel: "a.xlsx", export_up_movies: "b.xlsx", export_down_movies: "c.xlsx" },
  site: true,
});
const info = (...domains: DomainInfo[]): BuildInfo => ({
  generator: "catalogue",
  version: 1,
  date: "2026-11-20",
  domains: domains.map((d, position) => ({ ...d, position, date: "2026-11-20" })),
});
const BUILD = info(
  domain("a.example", "", "a.example/media"),
  domain("b.example", "/cat", "cdn.example/covers"),
);

/** One viewer request through the function; `store` is the KeyValueStore (absent: none associated). */
async function request(
  code: string,
  method: string,
  host: string,
  uri: string,
  querystring: Record<string, unknown> = {},
  store?: Map<string, string>,
) {
  const handler = store === undefined ? loadWithoutStore(code) : loadFunction(code, store);
  return handler({
    version: "1.0",
    context: { eventType: "viewer-request" },
    viewer: { ip: "127.0.0.1" },
    request: { method, uri, querystring, headers: { host: { value: host } }, cookies: {} },
  });
}
const loadWithoutStore = (code: string) =>
  loadFunction(
    code.replace("cf.kvs()", "(() => { throw new Error('no store associated'); })()"),
    new Map(),
  );

describe("the CloudFront Function", () => {
  const code = cloudFrontFunction(BUILD);
  const store = new Map([
    ["a.example", "7"],
    ["b.example", "7"],
  ]);

  it("is one cloudfront-js-2.0 source within the runtime's limits: a top-level handler, the cloudfront module only", () => {
    expect(Buffer.byteLength(code)).toBeLessThan(10_240);
    expect(code).toMatch(/^async function handler\(event\) \{$/m);
    expect(code.match(/^import .*$/gm)).toEqual(['import cf from "cloudfront";']);
    for (const absent of [
      /\brequire\(/,
      /^export /m,
      /\bprocess\./,
      /\bfetch\(/,
      /\bsetTimeout\(/,
      /\bBuffer\b/,
    ])
      expect(code).not.toMatch(absent);
  });

  it("rewrites a listing to its file in the bucket, first occurrence of a parameter winning, query cleared", async () => {
    const out = await request(
      code,
      "GET",
      "B.example:443",
      "/cat/api/v1/videos/audiovisuals/",
      {
        page: { value: "2", multiValue: [{ value: "2" }, { value: "3" }] },
        format: { value: "api" },
        x: { value: "1" },
      },
      store,
    );
    expect(out).toMatchObject({ uri: "/b.example/_api/list/api/default/2.json", querystring: {} });
    expect(
      (await request(code, "GET", "unknown.example", "/api/v1/videos/audiovisuals/7/", {}, store))
        .uri,
    ).toBe("/a.example/_api/detail/7.json");
    expect(
      (
        await request(
          code,
          "GET",
          "b.example",
          "/cat/api/v1/videos/audiovisuals/export_up_movies/",
          {},
          store,
        )
      ).uri,
    ).toBe("/b.example/_api/export/export_up_movies.xlsx");
    expect((await request(code, "GET", "b.example", "/cat/director/x%20y/", {}, store)).uri).toBe(
      "/b.example/cat/director/x%20y/index.html",
    );
    expect((await request(code, "GET", "cdn.example", "/covers/x.webp", {}, store)).uri).toBe(
      "/cdn.example/covers/x.webp",
    );
  });

  it("answers what the URL decides: OPTIONS, 405, 301, invalid pages (past the last one from the store), unknown formats, hidden paths", async () => {
    const options = await request(code, "OPTIONS", "a.example", "/anything", {}, store);
    expect(options.statusCode).toBe(200);
    expect(options.headers.allow.value).toBe("GET, HEAD, OPTIONS");
    expect(options.headers["access-control-allow-origin"].value).toBe("*");
    const refused = await request(
      code,
      "DELETE",
      "a.example",
      "/api/v1/videos/audiovisuals/",
      {},
      store,
    );
    expect([refused.statusCode, refused.body.data]).toEqual([
      405,
      '{"detail":"Method \\"DELETE\\" not allowed."}',
    ]);
    const moved = await request(
      code,
      "GET",
      "b.example",
      "/cat/api/v1/videos/audiovisuals/12",
      { x: { value: "1" } },
      store,
    );
    expect([
      moved.statusCode,
      moved.headers.location.value,
      moved.headers["access-control-allow-origin"].value,
    ]).toEqual([301, "/cat/api/v1/videos/audiovisuals/12/?x=1", "*"]);
    for (const [page, stored] of [
      ["8", store],
      ["0", store],
      ["01", undefined],
    ] as const) {
      const invalid = await request(
        code,
        "GET",
        "a.example",
        "/api/v1/videos/audiovisuals/",
        { page: { value: page } },
        stored,
      );
      expect(
        [invalid.statusCode, invalid.body.data, invalid.headers["content-type"].value],
        page,
      ).toEqual([404, '{"detail":"Invalid page."}', "application/json"]);
    }
    // Without the store, a page past the last one is asked of the bucket (its error: documented).
    expect(
      (
        await request(code, "GET", "a.example", "/api/v1/videos/audiovisuals/", {
          page: { value: "8" },
        })
      ).uri,
    ).toBe("/a.example/_api/list/plain/default/8.json");
    expect(
      (
        await request(
          code,
          "GET",
          "a.example",
          "/api/v1/videos/audiovisuals/",
          { format: { value: "xml" }, page: { value: "0" } },
          store,
        )
      ).body.data,
    ).toBe('{"detail":"Not found."}');
    expect(
      (await request(code, "GET", "a.example", "/_catalogue/build.json", {}, store)).statusCode,
    ).toBe(404);
    expect(
      (await request(code, "GET", "a.example", "/%5f%61pi/detail/1.json", {}, store)).statusCode,
    ).toBe(404);
    expect((await request(code, "GET", "a.example", "/../etc/passwd", {}, store)).statusCode).toBe(
      400,
    );
    expect(
      (await request(code, "GET", "cdn.example", "/api/v1/videos/audiovisuals/", {}, store))
        .statusCode,
    ).toBe(404);
  });

  it("carries the security headers on its own answers", async () => {
    const answer = await request(
      code,
      "GET",
      "a.example",
      "/api/v1/videos/audiovisuals/",
      { page: { value: "0" } },
      store,
    );
    expect(answer.headers["x-content-type-options"].value).toBe("nosniff");
    expect(answer.headers["content-security-policy"].value).toMatch(
      /img-src 'self' data: https:\/\/cdn\.example;/,
    );
    expect(answer.headers["strict-transport-security"].value).toBe("max-age=31536000");
  });
});

describe("the response headers policy", () => {
  it("is a ResponseHeadersPolicyConfig with CORS, the security headers and the API's Vary and Allow", () => {
    const policy = responseHeadersPolicy(BUILD) as Record<string, any>;
    expect(policy.CorsConfig).toMatchObject({
      AccessControlAllowOrigins: { Quantity: 1, Items: ["*"] },
      AccessControlAllowCredentials: false,
      OriginOverride: true,
    });
    expect(policy.CorsConfig.AccessControlAllowMethods.Items).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(policy.SecurityHeadersConfig.ContentTypeOptions).toEqual({ Override: true });
    expect(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toMatch(
      /^default-src 'none';.*object-src 'none';.*frame-ancestors 'self'$/,
    );
    expect(policy.SecurityHeadersConfig.StrictTransportSecurity).toMatchObject({
      AccessControlMaxAgeSec: 31536000,
      IncludeSubdomains: false,
    });
    expect(policy.CustomHeadersConfig.Items.map((h: { Header: string }) => h.Header)).toEqual([
      "Vary",
      "Allow",
    ]);
    // A domain without TLS: no HSTS for the distribution (one policy for every host).
    const mixed = responseHeadersPolicy(
      info(
        domain("a.example", "", "a.example/media"),
        domain("c.example", "", "c.example/media", "http"),
      ),
    ) as Record<string, any>;
    expect(mixed.SecurityHeadersConfig.StrictTransportSecurity).toBeUndefined();
  });
});

describe("catalogue config cloudfront", () => {
  let temp: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    temp = await tempDir("catalogue-cloudfront-cli-");
  });
  afterAll(() => temp?.cleanup());

  it("writes function.js, response-headers-policy.json and key-value-store.json from the build; refuses more than 100 hosts", async () => {
    const dist = path.join(temp.dir, "dist");
    await mkdir(path.join(dist, "_catalogue"), { recursive: true });
    await writeFile(path.join(dist, "_catalogue/build.json"), JSON.stringify(BUILD));
    const out = path.join(temp.dir, "cf");
    const { code, stderr } = await catalogue(
      ["config", "cloudfront", "--dir", dist, "--out", out],
      { inherit: true },
    );
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("function.js");
    expect(await readFile(path.join(out, "function.js"), "utf8")).toBe(cloudFrontFunction(BUILD));
    expect(
      JSON.parse(await readFile(path.join(out, "response-headers-policy.json"), "utf8")),
    ).toEqual(responseHeadersPolicy(BUILD));
    expect(JSON.parse(await readFile(path.join(out, "key-value-store.json"), "utf8"))).toEqual({
      data: [
        { key: "a.example", value: "7" },
        { key: "b.example", value: "7" },
      ],
    });

    const many = info(
      ...Array.from({ length: 101 }, (_, i) => domain(`d${i}.example`, "", `d${i}.example/media`)),
    );
    await writeFile(path.join(dist, "_catalogue/build.json"), JSON.stringify(many));
    const refused = await catalogue(["config", "cloudfront", "--dir", dist, "--out", out], {
      inherit: true,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/at most 100 alternate domain names/);
  });
});
