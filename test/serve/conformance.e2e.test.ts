import { symlink } from "node:fs/promises";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture } from "../helpers/catalogue.ts";
import { DISCOVERY, HTML, SHARED, makeFixture, placeHtml, type Fixture } from "./fixture.ts";
import { headerChecks } from "./header-checks.ts";
import { ask, rawStatus, type Reply } from "./http.ts";
import { violations } from "./schema.ts";
import { startEdge } from "../edge/assets.ts";
import { startWorkerd } from "../edge/workerd.ts";
import { startCloudFront } from "../cloudfront/harness.ts";
import {
  availableServers,
  startCaddy,
  startNginx,
  startNginxSnippets,
  startServe,
  type Running,
  type ServerName,
} from "./servers.ts";

/**
 * One conformance suite, every server: `catalogue serve`, nginx and Caddy with the generated
 * configurations, the edge function in Node, and the Worker of `catalogue config workers` in
 * workerd (static assets, and R2), on the same build. Expected answers come from the build's own files and from
 * docs/interface.md#routing, never from src/serve/ (which is what is being checked).
 */

const SERVERS = await availableServers();
const API = "/api/v1/videos/audiovisuals/";
const ALLOW = "GET, HEAD, OPTIONS";
const JSON_TYPE = "application/json";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const EXPORTS = ["export_excel", "export_up_movies", "export_down_movies"] as const;
/** The MARC files of each export set (docs/exports.md#marc-21-records): URL below the spreadsheet's, file, type. */
const MARC = [
  { url: "marc", extension: "mrc", type: "application/marc" },
  { url: "marcxml", extension: "xml", type: "application/marcxml+xml" },
] as const;

let fx: Fixture;
const running = new Map<ServerName, Running>();

beforeAll(async () => {
  fx = await makeFixture();
  // A Worker's static assets are uploaded when it is deployed, and the upload follows links
  // (docs/serving.md): it is deployed from the build as built, before the links below exist.
  running.set("workerd-assets", await startWorkerd(fx.dist, "assets"));
  // Links inside the build that lead out of it (a build never has any; a server must not follow them).
  const root = await realpath(fx.dist);
  await symlink("/etc", path.join(root, "domain-1.example/etc-link"));
  await symlink("/etc/passwd", path.join(root, "domain-1.example/passwd.txt"));
  const starts = SERVERS.filter((s) => !s.missing && !running.has(s.name)).map(
    async ({ name, binary }) => {
      const server: Running =
        name === "serve"
          ? await startServe(fx)
          : name === "edge"
            ? await startEdge(fx.dist)
            : name === "cloudfront"
              ? await startCloudFront(fx.dist)
              : name === "workerd-r2"
                ? await startWorkerd(fx.dist, "r2")
                : name === "nginx"
                  ? await startNginx(binary!, fx)
                  : name === "nginx-snippets"
                    ? await startNginxSnippets(binary!, fx)
                    : await startCaddy(binary!, fx);
      running.set(name, server);
    },
  );
  await Promise.all(starts);
}, 180_000);

afterAll(async () => {
  await Promise.all([...running.values()].map((s) => s.stop()));
  await fx?.cleanup();
});

const varyOf = (reply: Reply) =>
  String(reply.headers.vary ?? "")
    .toLowerCase()
    .split(/\s*,\s*/);

function apiProblems(reply: Reply, status: number, body?: Buffer | string): string[] {
  const problems: string[] = [];
  if (reply.status !== status) problems.push(`status ${reply.status}, expected ${status}`);
  if (reply.headers["content-type"] !== JSON_TYPE)
    problems.push(`content-type ${reply.headers["content-type"]}`);
  if (!varyOf(reply).includes("accept")) problems.push(`vary ${reply.headers.vary}`);
  if (reply.headers.allow !== ALLOW) problems.push(`allow ${reply.headers.allow}`);
  if (body !== undefined && !reply.body.equals(Buffer.from(body)))
    problems.push(`body ${reply.body.toString().slice(0, 80)}`);
  return problems;
}

const FORMATS = [
  [undefined, "plain"],
  ["api", "api"],
  ["json", "json"],
] as const;
const ORDERINGS = [
  [undefined, "default"],
  ["name", "name"],
  ["-name", "-name"],
  ["year", "year"],
  ["-year", "-year"],
] as const;

describe.each(SERVERS)("$name", ({ name, missing }) => {
  let port: number;
  const get = (
    host: string,
    target: string,
    headers: Record<string, string> = {},
    method = "GET",
  ) => ask(port, { host, path: target, headers, method });
  const domains = () => fx.info.domains;
  const apiOf = (domain: string) =>
    `${fx.info.domains.find((d) => d.domain === domain)!.base_path}${API}`;
  const file = (rel: string) => fx.read(rel);
  const errorFile = (domain: string, error: string) => file(`${domain}/_api/error/${error}.json`);

  beforeAll(() => {
    if (!missing) port = running.get(name)!.port;
  });

  describe.skipIf(missing)("list", () => {
    it("answers every format × ordering × page (first, middle, last, past the last, last) from the build", async () => {
      const problems: string[] = [];
      let combination = 0;
      for (const domain of domains()) {
        const total = domain.total_pages;
        const pages: [string | undefined, string | null][] = [
          [undefined, "1"],
          ["1", "1"],
          [String(Math.ceil(total / 2)), String(Math.ceil(total / 2))],
          [String(total), String(total)],
          [String(total + 1), null],
          ["last", "last"],
        ];
        for (const [format, formatDir] of FORMATS) {
          for (const [ordering, orderingDir] of ORDERINGS) {
            for (const [page, pageFile] of pages) {
              const params = [
                ["format", format],
                ["ordering", ordering],
                ["page", page],
              ].filter(([, v]) => v !== undefined);
              // Parameters in every order: rotate them with each combination.
              const shift = combination++ % Math.max(1, params.length);
              const query = [...params.slice(shift), ...params.slice(0, shift)]
                .map(([k, v]) => `${k}=${v}`)
                .join("&");
              const target = `${domain.base_path}${API}${query ? `?${query}` : ""}`;
              const reply = await get(domain.domain, target);
              const expected =
                pageFile === null
                  ? await errorFile(domain.domain, "invalid-page")
                  : await file(
                      `${domain.domain}/_api/list/${formatDir}/${orderingDir}/${pageFile}.json`,
                    );
              const p = apiProblems(reply, pageFile === null ? 404 : 200, expected);
              if (p.length > 0) problems.push(`${domain.domain} ${target}: ${p.join("; ")}`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
      expect(combination).toBe(domains().length * 3 * 5 * 6);
    });

    it("page=last is the last numbered page, byte for byte", async () => {
      for (const domain of domains()) {
        const last = await get(domain.domain, `${apiOf(domain.domain)}?page=last&format=api`);
        const numbered = await get(
          domain.domain,
          `${apiOf(domain.domain)}?format=api&page=${domain.total_pages}`,
        );
        expect(last.status).toBe(200);
        expect(last.body.equals(numbered.body)).toBe(true);
      }
    });

    it("answers the edge requests of the contract", async () => {
      const host = "domain-1.example";
      const api = apiOf(host);
      const page = (format: string, ordering: string, n: string) =>
        file(`${host}/_api/list/${format}/${ordering}/${n}.json`);
      const invalid = await errorFile(host, "invalid-page");
      const notFound = await errorFile(host, "not-found");
      const cases: [string, number, Buffer][] = [
        ["page=1", 200, await page("plain", "default", "1")],
        ["page=2&ordering=-year&format=json", 200, await page("json", "-year", "2")],
        ["format=json&format=api", 200, await page("json", "default", "1")],
        ["page=2&page=3", 200, await page("plain", "default", "2")],
        ["ordering=year&ordering=name", 200, await page("plain", "year", "1")],
        ["search=x&page=2&limit=5", 200, await page("plain", "default", "2")],
        ["ordering=title", 200, await page("plain", "default", "1")],
        ["ordering=", 200, await page("plain", "default", "1")],
        ["ordering=NAME", 200, await page("plain", "default", "1")],
        ["ordering=../../../../etc/passwd", 200, await page("plain", "default", "1")],
        ["xpage=3&pagex=4", 200, await page("plain", "default", "1")],
        ["page=0", 404, invalid],
        ["page=-1", 404, invalid],
        ["page=abc", 404, invalid],
        ["page=01", 404, invalid],
        ["page=", 404, invalid],
        ["page", 404, invalid],
        ["page=1.0", 404, invalid],
        ["page=LAST", 404, invalid],
        ["page=%31", 404, invalid],
        ["page=9999999999", 404, invalid],
        ["page=../../etc/passwd", 404, invalid],
        ["page=%ZZ", 404, invalid],
        ["format=xml", 404, notFound],
        ["format=", 404, notFound],
        ["format=API", 404, notFound],
        ["format=../../etc/passwd%00", 404, notFound],
        ["format=xml&page=0", 404, notFound],
      ];
      const problems: string[] = [];
      for (const [query, status, body] of cases) {
        const p = apiProblems(await get(host, `${api}?${query}`), status, body);
        if (p.length > 0) problems.push(`?${query}: ${p.join("; ")}`);
      }
      expect(problems).toEqual([]);
    });

    it("following next from page 1 collects every listed work exactly once", async () => {
      for (const domain of domains()) {
        const listed = await fx.listedIds(domain.domain);
        for (const [format] of FORMATS) {
          for (const [ordering] of ORDERINGS) {
            const query = [format && `format=${format}`, ordering && `ordering=${ordering}`]
              .filter(Boolean)
              .join("&");
            let next: string | null = `${domain.base_url}${API}${query ? `?${query}` : ""}`;
            const seen: number[] = [];
            let count = -1;
            while (next !== null) {
              const url: URL = new URL(next);
              const reply = await get(url.host, `${url.pathname}${url.search}`);
              expect(reply.status, next).toBe(200);
              const page = JSON.parse(reply.body.toString()) as {
                links: { next: string | null };
                count: number;
                results: { id: number }[];
              };
              seen.push(...page.results.map((r) => r.id));
              count = page.count;
              next = page.links.next;
              expect(seen.length).toBeLessThanOrEqual(listed.length);
            }
            expect(count).toBe(listed.length);
            expect([...seen].sort((a, b) => a - b)).toEqual(listed);
          }
        }
      }
    });
  });

  describe.skipIf(missing)("retrieve, exports, redirects", () => {
    it("retrieves listed works and answers 404 Not found for the others", async () => {
      for (const domain of domains()) {
        const listed = await fx.listedIds(domain.domain);
        const api = apiOf(domain.domain);
        for (const id of [listed[0]!, listed[Math.floor(listed.length / 2)]!, listed.at(-1)!]) {
          expect(
            apiProblems(
              await get(domain.domain, `${api}${id}/`),
              200,
              await file(`${domain.domain}/_api/detail/${id}.json`),
            ),
          ).toEqual([]);
        }
        const unlisted = [
          1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
        ].find((id) => !listed.includes(id))!;
        const notFound = await errorFile(domain.domain, "not-found");
        for (const target of [
          `${api}${unlisted}/`,
          `${api}9999999999/`,
          `${api}0/`,
          `${api}abc/`,
          `${api}1/extra/`,
        ]) {
          const reply = await get(domain.domain, target);
          if (name === "cloudfront" && /\/\d+\/$/.test(target)) {
            // Documented (docs/serving.md#cloudfront): a retrieve's file is asked of the bucket, and
            // no function runs on its error (S3's 404, or 403 without s3:ListBucket).
            expect([403, 404], target).toContain(reply.status);
            continue;
          }
          expect(apiProblems(reply, 404, notFound), target).toEqual([]);
        }
      }
    });

    it("serves the three spreadsheets with their download names (when the build has them)", async () => {
      for (const domain of domains()) {
        for (const kind of EXPORTS) {
          const rel = `${domain.domain}/_api/export/${kind}.xlsx`;
          const bytes = await file(rel).catch(() => null);
          const reply = await get(domain.domain, `${apiOf(domain.domain)}${kind}/`);
          if (bytes === null) {
            expect(reply.status).toBe(404);
            continue;
          }
          expect(reply.status).toBe(200);
          expect(reply.headers["content-type"]).toBe(XLSX_TYPE);
          expect(reply.headers["content-disposition"]).toBe(
            `attachment; filename="${domain.exports[kind]}"`,
          );
          expect(reply.headers.allow).toBe(ALLOW);
          expect(reply.body.equals(bytes)).toBe(true);
        }
      }
    });

    it("serves each set's MARC files (ISO 2709, MARCXML) with their types and download names", async () => {
      let served = 0;
      for (const domain of domains()) {
        for (const kind of EXPORTS) {
          for (const { url, extension, type } of MARC) {
            const bytes = await file(`${domain.domain}/_api/export/${kind}.${extension}`).catch(
              () => null,
            );
            const reply = await get(domain.domain, `${apiOf(domain.domain)}${kind}/${url}/`);
            if (bytes === null) {
              expect(reply.status).toBe(404);
              continue;
            }
            expect(reply.status, `${kind}/${url}/`).toBe(200);
            expect(reply.headers["content-type"]).toBe(type);
            expect(reply.headers["content-disposition"]).toBe(
              `attachment; filename="${domain.exports[kind]!.replace(/\.xlsx$/, `.${extension}`)}"`,
            );
            expect(reply.headers.allow).toBe(ALLOW);
            expect(reply.body.equals(bytes)).toBe(true);
            served++;
          }
          const slashless = await get(domain.domain, `${apiOf(domain.domain)}${kind}/marc`);
          expect(slashless.status).toBe(301);
          expect(slashless.headers.location).toBe(`${apiOf(domain.domain)}${kind}/marc/`);
        }
      }
      expect(served).toBeGreaterThan(0);
    });

    it("redirects API paths without their trailing slash, query kept, Location path-only", async () => {
      for (const domain of domains()) {
        const api = apiOf(domain.domain);
        for (const [target, location] of [
          [api.slice(0, -1), api],
          [`${api.slice(0, -1)}?page=2&format=api`, `${api}?page=2&format=api`],
          [`${api}12`, `${api}12/`],
          [`${api}12?x=1`, `${api}12/?x=1`],
          ...EXPORTS.map((kind) => [`${api}${kind}`, `${api}${kind}/`]),
        ]) {
          const reply = await get(domain.domain, target!);
          expect(reply.status, target).toBe(301);
          expect(reply.headers.location, target).toBe(location);
        }
      }
    });
  });

  describe.skipIf(missing)("methods", () => {
    const host = "domain-2.example";
    const targets = () => [apiOf(host), `${apiOf(host)}1/`, `${apiOf(host)}export_excel/`];

    it("HEAD answers the GET headers without a body", async () => {
      for (const target of [`${apiOf(host)}?page=2`, `${apiOf(host)}?page=0`]) {
        const got = await get(host, target);
        const head = await get(host, target, {}, "HEAD");
        expect(head.status).toBe(got.status);
        expect(head.body.length).toBe(0);
        for (const header of ["content-type", "content-length", "allow", "vary", "cache-control"]) {
          expect(head.headers[header], `${target} ${header}`).toBe(got.headers[header]);
        }
      }
    });

    it("OPTIONS answers 200 with Allow", async () => {
      for (const target of targets()) {
        const reply = await get(host, target, {}, "OPTIONS");
        expect(reply.status).toBe(200);
        expect(reply.headers.allow).toBe(ALLOW);
      }
    });

    it("POST, PUT, PATCH and DELETE answer 405 with the build's error body and Allow", async () => {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const body = await errorFile(host, `method-${method}`);
        for (const target of targets()) {
          const reply = await get(host, target, {}, method);
          expect(reply.status, `${method} ${target}`).toBe(405);
          expect(reply.headers.allow).toBe(ALLOW);
          expect(reply.headers["content-type"]).toBe(JSON_TYPE);
          expect(reply.body.toString()).toBe(body.toString());
        }
      }
    });

    it("other methods answer 405 with Allow", async () => {
      // The Fetch API forbids TRACE (a Request cannot carry it), so the edge never sees one.
      for (const method of name === "edge"
        ? ["PROPFIND", "MKCOL"]
        : ["PROPFIND", "TRACE", "MKCOL"]) {
        const reply = await get(host, apiOf(host), {}, method);
        // Documented: CloudFront refuses a method no behaviour can allow (403) before any function.
        if (name === "cloudfront") {
          expect(reply.status, method).toBe(403);
          continue;
        }
        expect(reply.status, method).toBe(405);
        expect(reply.headers.allow, method).toBe(ALLOW);
        expect(JSON.parse(reply.body.toString())).toEqual({
          detail: `Method "${method}" not allowed.`,
        });
      }
    });
  });

  describe.skipIf(missing)("hosts, media, HTML, caching", () => {
    it("selects the domain by Host, ignoring case and port; unknown hosts get the first domain", async () => {
      const first = fx.info.domains[0]!;
      const expected = await file(`${first.domain}/_api/list/plain/default/1.json`);
      for (const host of [
        first.domain,
        first.domain.toUpperCase(),
        `${first.domain}:8080`,
        "unknown.example",
        "127.0.0.1",
        "..",
        "a b",
      ]) {
        const reply = await get(host, `${API}`);
        if (host === "a b" && name.startsWith("workerd")) {
          // Documented (docs/serving.md): workerd cannot make a URL of this Host and answers 500
          // itself, before the Worker runs (Cloudflare's edge refuses such a request earlier).
          expect(reply.status).toBe(500);
          expect(reply.body.toString()).not.toContain('"links"');
          continue;
        }
        if (host === "a b" || host === "..") {
          // Servers may refuse a malformed Host outright; if they answer, it is the fallback domain.
          expect(reply.status).toBeLessThan(500);
          if (reply.status === 200) expect(reply.body.equals(expected)).toBe(true);
          continue;
        }
        expect(reply.status, host).toBe(200);
        expect(reply.body.equals(expected), host).toBe(true);
      }
      const second = await get("Domain-2.Example:443", `${apiOf("domain-2.example")}?page=2`);
      expect(
        second.body.equals(await file("domain-2.example/_api/list/plain/default/2.json")),
      ).toBe(true);
      // domain-2's API lives under its base path only.
      expect((await get("domain-2.example", API)).status).toBe(404);
    });

    it("serves each domain's media from its media_url host and path, cached for a year", async () => {
      for (const domain of domains()) {
        const page = JSON.parse(
          (await file(`${domain.domain}/_api/list/plain/default/1.json`)).toString(),
        ) as { results: { cover: string }[] };
        const cover = new URL(page.results[0]!.cover);
        const reply = await get(cover.host, cover.pathname);
        expect(reply.status, cover.href).toBe(200);
        expect(reply.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(reply.headers["content-type"]).toMatch(/^image\//);
        expect(reply.body.equals(await file(`${cover.host}${cover.pathname}`))).toBe(true);
      }
      // A media-only host serves nothing else.
      expect((await get("media.example", API)).status).toBe(404);
    });

    it("serves the HTML catalogue: index pages, directory redirects, the domain's 404 page", async () => {
      const host = "domain-2.example";
      const index = await get(host, "/cataleg/");
      expect(index.status).toBe(200);
      expect(index.headers["content-type"]).toMatch(/^text\/html/);
      expect(index.body.toString()).toBe(HTML.index);
      expect(index.headers["cache-control"]).toBe("public, max-age=300");
      expect((await get(host, "/cataleg/sub/")).body.toString()).toBe(HTML.sub);
      const sub = await get(host, "/cataleg/sub");
      const missingPage = await get(host, "/cataleg/no-such-page");
      if (name === "cloudfront") {
        // Documented (docs/serving.md#cloudfront): the bucket has no folders to redirect to, and
        // a missing file is the bucket's error (no function runs on it), not the domain's page.
        expect([sub.status, missingPage.status]).toEqual([404, 404]);
        return;
      }
      expect(sub.status).toBe(301);
      expect(sub.headers.location).toBe("/cataleg/sub/");
      expect(missingPage.status).toBe(404);
      expect(missingPage.body.toString()).toBe(HTML.notFound);
      // The site is also in Spanish and Catalan: a missing page under a version's folder gets its 404 page.
      for (const [target, page] of [
        ["/cataleg/es/no-such-page", HTML.notFoundEs],
        ["/cataleg/ca/director/nobody/", HTML.notFoundCa],
        ["/cataleg/fr/no-such-page", HTML.notFound],
        ["/cataleg/esx/no-such-page", HTML.notFound],
      ] as const) {
        const reply = await get(host, target);
        expect(reply.status, target).toBe(404);
        expect(reply.body.toString(), target).toBe(page);
      }
    });

    it("serves robots.txt, the sitemaps and the Atom feed with their types, gzipped on request", async () => {
      const types: Record<string, string> = {
        txt: "text/plain; charset=utf-8",
        xml: "application/xml",
        atom: "application/atom+xml",
      };
      for (const [rel, text] of Object.entries(DISCOVERY)) {
        const host = rel.slice(0, rel.indexOf("/"));
        const target = rel.slice(host.length);
        const type = types[rel.slice(rel.lastIndexOf(".") + 1)]!;
        const reply = await get(host, target);
        expect(reply.status, rel).toBe(200);
        expect(reply.headers["content-type"], rel).toBe(type);
        expect(reply.headers["cache-control"], rel).toBe("public, max-age=300");
        expect(reply.body.toString(), rel).toBe(text);
        const head = await get(host, target, {}, "HEAD");
        expect([head.status, head.headers["content-type"], head.body.length], rel).toEqual([
          200,
          type,
          0,
        ]);
      }
      // The feed is large enough to be worth compressing, as XML and text are. workerd compresses by
      // its own list of types, which lacks application/atom+xml (documented in docs/serving.md).
      const gzipped = await get("domain-1.example", "/feed.atom", { "Accept-Encoding": "gzip" });
      if (name.startsWith("workerd"))
        expect(gzipped.body.toString()).toBe(DISCOVERY["domain-1.example/feed.atom"]);
      else {
        expect(gzipped.headers["content-encoding"]).toBe("gzip");
        expect(gunzipSync(gzipped.body).toString()).toBe(DISCOVERY["domain-1.example/feed.atom"]);
      }
      // A sitemap that does not exist is the site's 404, not an empty XML answer.
      const missing = await get("domain-2.example", "/cataleg/sitemap-9.xml");
      expect(missing.status).toBe(404);
      if (name !== "cloudfront") expect(missing.body.toString()).toBe(HTML.notFound);
    });

    it("serves the JSON feeds and the shelf's module with CORS, their types and a preflight", async () => {
      const origin = { Origin: "https://library.example" };
      for (const [rel, { text, type }] of Object.entries(SHARED)) {
        const host = rel.slice(0, rel.indexOf("/"));
        const target = rel.slice(host.length);
        const reply = await get(host, target, origin);
        expect(reply.status, rel).toBe(200);
        expect(reply.headers["content-type"], rel).toBe(type);
        expect(reply.headers["access-control-allow-origin"], rel).toBe("*");
        expect(reply.headers["cache-control"], rel).toBe("public, max-age=300");
        expect(reply.body.toString(), rel).toBe(text);
        const preflight = await get(
          host,
          target,
          { ...origin, "Access-Control-Request-Method": "GET" },
          "OPTIONS",
        );
        expect(preflight.status, rel).toBeLessThan(300);
        expect(preflight.headers["access-control-allow-origin"], rel).toBe("*");
      }
      // A version without a feed: the site's 404, not an empty answer.
      const missing = await get("domain-2.example", "/cataleg/es/feed.json", origin);
      expect(missing.status).toBe(404);
    });

    it("never serves the raw API files or the build metadata", async () => {
      const secret = await file("_catalogue/build.json");
      for (const [host, target] of [
        ["domain-1.example", "/_api/list/plain/default/1.json"],
        ["domain-2.example", "/_api/detail/1.json"],
        ["domain-1.example", "/_catalogue/build.json"],
        ["domain-1.example", "/_api/"],
        ["domain-1.example", "/%5fapi/list/plain/default/1.json"],
      ] as const) {
        const reply = await get(host, target);
        expect(reply.status, target).toBe(404);
        expect(reply.body.includes(secret)).toBe(false);
        expect(reply.body.toString()).not.toContain('"links"');
      }
    });

    it("answers If-None-Match with 304", async () => {
      const target = `${apiOf("domain-1.example")}?page=2`;
      const first = await get("domain-1.example", target);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await get("domain-1.example", target, { "If-None-Match": etag! });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const other = await get("domain-1.example", target, { "If-None-Match": '"something-else"' });
      expect(other.status).toBe(200);
    });

    it("compresses JSON for clients that accept gzip", async () => {
      const target = `${apiOf("domain-1.example")}?page=2`;
      const reply = await get("domain-1.example", target, { "Accept-Encoding": "gzip" });
      expect(reply.status).toBe(200);
      expect(reply.headers["content-encoding"]).toBe("gzip");
      expect(reply.headers["content-type"]).toBe(JSON_TYPE);
      expect(
        gunzipSync(reply.body).equals(
          await file("domain-1.example/_api/list/plain/default/2.json"),
        ),
      ).toBe(true);
    });
  });

  describe.skipIf(missing)("hostile requests", () => {
    const etcPasswd = /root:.*:0:0:/;

    it("answers 4xx to path tricks and never shows a file outside the build", async () => {
      const targets = [
        "/%2e%2e/",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fetc/passwd",
        "/../../etc/passwd",
        "/cataleg/../../../etc/passwd",
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/a%00b",
        `${API}%00/`,
        "/%ZZ",
        "/%",
        "/etc-link/passwd",
        "/passwd.txt",
      ];
      for (const target of targets) {
        if (name === "caddy" && (target === "/etc-link/passwd" || target === "/passwd.txt"))
          continue; // documented: Caddy follows links
        const reply = await get("domain-1.example", target);
        expect(reply.status, target).toBeGreaterThanOrEqual(400);
        expect(reply.status, target).toBeLessThan(500);
        expect(reply.body.toString(), target).not.toMatch(etcPasswd);
      }
    });

    it("refuses an overlong request target with a 4xx and serves a long valid one", async () => {
      const long = await get("domain-1.example", `${API}?page=2&junk=${"x".repeat(10_000)}`);
      expect(long.status).toBeGreaterThanOrEqual(400);
      expect(long.status).toBeLessThan(500);
      const fine = await get("domain-1.example", `${API}?page=2&junk=${"x".repeat(4_000)}`);
      expect(fine.status).toBe(200);
    });

    it("answers raw malformed request lines with a 4xx and keeps serving", async () => {
      for (const line of ["GET /\x01 HTTP/1.1", "GET /a b HTTP/1.1", "GET /\x00 HTTP/1.1"]) {
        const { status } = await rawStatus(
          port,
          Buffer.from(`${line}\r\nHost: domain-1.example\r\nConnection: close\r\n\r\n`, "latin1"),
        );
        // Documented (docs/serving.md): workerd percent-encodes a control character or a space
        // of the target and runs the Worker (no such file: 404); it refuses a NUL itself.
        if (name.startsWith("workerd"))
          expect(status, JSON.stringify(line)).toBe(line.includes("\x00") ? 400 : 404);
        expect(status, JSON.stringify(line)).toBeGreaterThanOrEqual(400);
        expect(status, JSON.stringify(line)).toBeLessThan(500);
      }
      expect((await get("domain-1.example", API)).status).toBe(200);
    });
  });

  // Only workerd's servers have this suite (not a skip for the others: it is not theirs).
  if (name.startsWith("workerd"))
    describe.skipIf(missing)(
      "workerd's reading of the request target (documented in docs/serving.md)",
      () => {
        it("reads a backslash as a slash and drops a tab ending the target (nginx: 404 and 400)", async () => {
          const host = "domain-1.example";
          const raw = async (target: string) => {
            const { status, text } = await rawStatus(
              port,
              Buffer.from(
                `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
                "latin1",
              ),
            );
            return {
              status,
              body: Buffer.from(text.slice(text.indexOf("\r\n\r\n") + 4), "latin1"),
            };
          };
          const second = await file(`${host}/_api/list/plain/default/2.json`);
          for (const target of [
            "/api/v1/videos\\audiovisuals/?page=2",
            "/api/v1/videos/audiovisuals\\?page=2",
            "/api/v1/videos/audiovisuals/?page=2\t",
          ]) {
            const reply = await raw(target);
            expect(reply.status, JSON.stringify(target)).toBe(200);
            expect(reply.body.equals(second), JSON.stringify(target)).toBe(true);
          }
          // A tab inside the path stays part of it: no such path.
          expect((await raw("/api/v1/videos/audio\tvisuals/?page=2")).status).toBe(404);
          // The raw files stay hidden whatever the spelling.
          expect((await raw("/_api\\list/plain/default/1.json")).status).toBe(404);
        });
      },
    );

  describe.skipIf(missing)("headers and ranges", () => headerChecks(() => ({ name, get, fx })));

  describe.skipIf(missing)("OpenAPI description", () => {
    it("is served for each domain and its schemas accept the real responses", async () => {
      for (const domain of domains()) {
        const reply = await get(domain.domain, `${domain.base_path}/api/v1/openapi.json`);
        expect(reply.status).toBe(200);
        expect(reply.headers["content-type"]).toBe(JSON_TYPE);
        const doc = JSON.parse(reply.body.toString()) as Record<string, any>;
        expect(doc.openapi).toBe("3.1.0");
        expect(doc.servers[0].url).toBe(domain.base_url);
        expect(Object.keys(doc.paths)).toEqual([
          API,
          `${API}{id}/`,
          ...EXPORTS.flatMap((k) => [`${API}${k}/`, ...MARC.map((m) => `${API}${k}/${m.url}/`)]),
        ]);
        // Each MARC path is described with the type it is answered with.
        for (const kind of EXPORTS)
          for (const { url, type } of MARC) {
            const ok = doc.paths[`${API}${kind}/${url}/`].get.responses["200"];
            expect(Object.keys(ok.content)).toEqual([type]);
            const served = await get(domain.domain, `${apiOf(domain.domain)}${kind}/${url}/`);
            expect(served.headers["content-type"]).toBe(type);
          }
        const schemas = doc.components.schemas;
        const api = apiOf(domain.domain);
        for (const query of ["", "?format=api&ordering=-year&page=2", "?page=last&ordering=name"]) {
          const page = JSON.parse((await get(domain.domain, `${api}${query}`)).body.toString());
          expect(violations(page, schemas.Page, doc)).toEqual([]);
        }
        for (const id of (await fx.listedIds(domain.domain)).slice(0, 20)) {
          const detail = JSON.parse((await get(domain.domain, `${api}${id}/`)).body.toString());
          expect(violations(detail, schemas.AudiovisualDetail, doc)).toEqual([]);
          // The checker itself must reject what the API never sends.
          expect(violations({ ...detail, extra: 1 }, schemas.AudiovisualDetail, doc)).not.toEqual(
            [],
          );
        }
        for (const query of ["?page=0", "?format=xml"]) {
          const error = JSON.parse((await get(domain.domain, `${api}${query}`)).body.toString());
          expect(violations(error, schemas.Error, doc)).toEqual([]);
        }
        const param = (n: string) =>
          doc.paths[API].get.parameters.find((p: { name: string }) => p.name === n).schema;
        expect(violations("last", param("page"), doc)).toEqual([]);
        expect(violations(0, param("page"), doc)).not.toEqual([]);
        expect(violations("xml", param("format"), doc)).not.toEqual([]);
      }
    });
  });
});

describe("all servers", () => {
  it("give the same answer to random query strings and path spellings", async () => {
    const names = [...running.keys()];
    const token = fc.constantFrom(
      "page=1",
      "page=2",
      "page=last",
      "page=0",
      "page=",
      "page",
      "page=01",
      "page=%32",
      "PAGE=2",
      "xpage=3",
      "format=api",
      "format=json",
      "format=xml",
      "format=",
      "format=API",
      "ordering=name",
      "ordering=-name",
      "ordering=year",
      "ordering=-year",
      "ordering=bogus",
      "ordering=",
      "a=1",
      "=",
      "",
      "page=2=3",
      "format=api%00",
    );
    const query = fc.array(token, { maxLength: 6 }).map((parts) => parts.join("&"));
    const pathSpelling = fc.constantFrom(
      API,
      "/api/v1/videos/%61udiovisuals/",
      "/api/v1/videos/audiovisuals/./",
      "/api/v1/x/../videos/audiovisuals/",
      "/api/v1/videos/audiovisuals",
    );
    const samples = fc.sample(fc.tuple(pathSpelling, query), { numRuns: 300, seed: 20261120 });
    const differences: string[] = [];
    for (const [spelling, q] of samples) {
      const target = `${spelling}?${q}`;
      const answers = await Promise.all(
        names.map((n) => ask(running.get(n)!.port, { host: "domain-3.example", path: target })),
      );
      const shown = answers.map(
        (a, i) => `${names[i]}=${a.status}:${a.headers.location ?? a.body.toString().slice(0, 40)}`,
      );
      if (
        answers.some(
          (a) =>
            a.status !== answers[0]!.status ||
            (!a.body.equals(answers[0]!.body) && a.status !== 301),
        )
      )
        differences.push(`${target}: ${shown.join(" ")}`);
      // Documented: CloudFront's event groups a repeated parameter and writes a bare one as `name=`,
      // so a redirect's query is spelled otherwise there (same parameters, same first values).
      const located = answers.filter((a, i) => a.status === 301 && names[i] !== "cloudfront");
      if (located.some((a) => a.headers.location !== located[0]!.headers.location))
        differences.push(`${target}: ${shown.join(" ")}`);
    }
    expect(differences).toEqual([]);
  });
});

describe("an atomic rebuild", () => {
  it("is served by every running server without a restart or reload (a Worker once deployed again)", async () => {
    // A later date changes what is listed, new and expired; the link `dist` moves to the new version.
    await buildFixture(fx.content, fx.dist, { date: "2027-03-01" });
    await placeHtml(fx.dist);
    const expected = await fx.read("domain-1.example/_api/list/plain/default/1.json");
    const before = JSON.parse(expected.toString()).count;
    expect(before).not.toBe(fx.info.domains[0]!.count);
    await Promise.all(
      [...running.values()].map((server) => server.deploy?.() ?? Promise.resolve()),
    );
    for (const [name, server] of running) {
      const reply = await ask(server.port, { host: "domain-1.example", path: API });
      expect(reply.status, name).toBe(200);
      expect(reply.body.equals(expected), name).toBe(true);
    }
  }, 180_000); // a build, then the Workers' deploys (the R2 one uploads every file again)
});
