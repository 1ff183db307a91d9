import { MANIFEST_PATH, parseManifest } from "../../src/output/tree.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { netlifyRules } from "../../src/edge/netlify.ts";
import type { BuildInfo } from "../../src/output/build-info.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let dist: string;
let info: BuildInfo;
let files: Set<string>;

beforeAll(async () => {
  root = await tempDir("catalogue-netlify-");
  dist = path.join(root.dir, "dist");
  await buildFixture(await generatedContent(root.dir, { works: 45, domains: 1 }), dist);
  info = JSON.parse(await readFile(path.join(dist, "_catalogue/build.json"), "utf8"));
  files = new Set(parseManifest(await readFile(path.join(dist, MANIFEST_PATH), "utf8")).keys());
});
afterAll(() => root?.cleanup());

/** `[from, query, to, status]` of each rule line. */
const parse = (redirects: string) =>
  redirects
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const parts = l.split(/\s{2,}/);
      const [from, ...query] = parts[0]!.split(" ");
      return { from: from!, query, to: parts[1]!, status: parts[2]! };
    });

describe("Netlify _redirects and _headers", () => {
  it("rewrites every listing combination onto a file of the build, most specific rule first", () => {
    const d = info.domains[0]!;
    const rules = parse(netlifyRules(info, d.domain).redirects).filter(
      (r) => r.from === "/api/v1/videos/audiovisuals/",
    );
    // format: api, json, absent; ordering: four values, absent; page: last, a number, absent.
    expect(rules).toHaveLength(3 * 5 * 3);
    for (const rule of rules) {
      expect(rule.status).toBe("200!");
      const target = `${d.domain}${rule.to.replace(":page", "2")}`;
      expect(files.has(target), target).toBe(true);
    }
    const counts = rules.map((r) => r.query.length);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(rules.at(-1)).toEqual({
      from: "/api/v1/videos/audiovisuals/",
      query: [],
      to: "/_api/list/plain/default/1.json",
      status: "200!",
    });
  });

  it("hides the raw files, redirects slashless paths and maps retrieve and exports", () => {
    const d = info.domains[0]!;
    const rules = parse(netlifyRules(info, d.domain).redirects);
    expect(rules.slice(0, 2).map((r) => [r.from, r.status])).toEqual([
      ["/_api/*", "404!"],
      ["/_catalogue/*", "404!"],
    ]);
    expect(rules).toContainEqual({
      from: "/api/v1/videos/audiovisuals",
      query: [],
      to: "/api/v1/videos/audiovisuals/",
      status: "301!",
    });
    expect(rules).toContainEqual({
      from: "/api/v1/videos/audiovisuals/export_excel/",
      query: [],
      to: "/_api/export/export_excel.xlsx",
      status: "200!",
    });
    expect(rules.at(-1)).toEqual({
      from: "/api/v1/videos/audiovisuals/:id/",
      query: [],
      to: "/_api/detail/:id.json",
      status: "200!",
    });
  });

  it("gives the API its headers, the exports their download names and the media a long cache", () => {
    const d = info.domains[0]!;
    const { headers } = netlifyRules(info, d.domain);
    expect(headers).toContain(
      "/api/v1/videos/audiovisuals/*\n  Vary: Accept\n  Allow: GET, HEAD, OPTIONS\n  Cache-Control: public, max-age=300\n",
    );
    expect(headers).toContain(
      `/api/v1/videos/audiovisuals/export_excel/\n  Content-Disposition: attachment; filename="${d.exports.export_excel}"\n`,
    );
    const marcxml = d.exports.export_down_movies!.replace(/\.xlsx$/, ".xml");
    expect(headers).toContain(
      `/api/v1/videos/audiovisuals/export_down_movies/marcxml/\n  Content-Type: application/marcxml+xml\n  Content-Disposition: attachment; filename="${marcxml}"\n`,
    );
    expect(headers).toContain("/media/*\n  Cache-Control: public, max-age=31536000, immutable\n");
    // CORS on the API and its description; the host's policies on everything.
    expect(headers).toContain(
      "/api/v1/videos/audiovisuals/*\n  Vary: Accept\n  Allow: GET, HEAD, OPTIONS\n  Cache-Control: public, max-age=300\n  Access-Control-Allow-Origin: *\n",
    );
    expect(headers).toContain("/api/v1/openapi.json\n  Access-Control-Allow-Origin: *\n");
    expect(headers).toMatch(
      /^\/\*\n {2}Cache-Control: public, max-age=300\n {2}X-Content-Type-Options: nosniff\n {2}Content-Security-Policy: default-src 'none'; script-src 'self';.*frame-ancestors 'self'\n {2}Referrer-Policy: strict-origin-when-cross-origin\n/m,
    );
  });

  it("types robots.txt, the sitemap and its parts, and the Atom feed (under the base path, robots.txt at the root)", () => {
    const d = { ...info.domains[0]!, base_path: "/cataleg" };
    const { headers } = netlifyRules({ ...info, domains: [d] }, d.domain);
    expect(headers).toContain("\n/robots.txt\n  Content-Type: text/plain; charset=utf-8\n");
    expect(headers).toContain("\n/cataleg/sitemap.xml\n  Content-Type: application/xml\n");
    expect(headers).toContain("\n/cataleg/sitemap-*\n  Content-Type: application/xml\n");
    expect(headers).toContain("\n/cataleg/feed.atom\n  Content-Type: application/atom+xml\n");
  });
});

describe("catalogue config netlify", () => {
  it("writes the domain's _headers and _redirects, and refuses an unknown domain", async () => {
    const { catalogue } = await import("../support/command.ts");
    const d = info.domains[0]!;
    const out = path.join(root.dir, "netlify");
    const wrote = await catalogue(
      ["config", "netlify", "--dir", dist, "--domain", d.domain, "--out", out],
      { inherit: true },
    );
    expect(wrote.code, wrote.stderr).toBe(0);
    const expected = netlifyRules(info, d.domain);
    expect(await readFile(path.join(out, "_headers"), "utf8")).toBe(expected.headers);
    expect(await readFile(path.join(out, "_redirects"), "utf8")).toBe(expected.redirects);
    const failure = await catalogue(
      ["config", "netlify", "--dir", dist, "--domain", "nope.example", "--out", out],
      { inherit: true },
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain(
      `--domain: no domain nope.example in the build; its domains are: ${d.domain}`,
    );
  });
});
