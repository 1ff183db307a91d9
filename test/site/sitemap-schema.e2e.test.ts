import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_URLS, sitemapFiles } from "../../src/site/sitemap.ts";
import { ROOT, tempDir } from "../helpers/catalogue.ts";
import { requireTool } from "../support/requires.ts";

/**
 * The sitemap files against the protocol's schemas, checked by xmllint (a system program, hence
 * e2e; test/site/seo.unit.test.ts checks what the built sitemap lists). The files are those
 * `sitemapFiles` writes into every build: one file, the multilingual one with its alternates, and
 * a domain split into parts under an index.
 */

const run = promisify(execFile);
const SITEMAP_XSD = path.join(ROOT, "test/fixtures/sitemaps/sitemap.xsd");
const SITEINDEX_XSD = path.join(ROOT, "test/fixtures/sitemaps/siteindex.xsd");
const xmllint = requireTool("xmllint", "the sitemap schema checks");

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-sitemap-schema-")));
afterAll(() => cleanup());

/** Writes each file into the temporary folder and returns what xmllint says of it. */
async function validate(files: Map<string, string>): Promise<Map<string, string>> {
  const verdicts = new Map<string, string>();
  for (const [name, text] of files) {
    const file = path.join(dir, name);
    await writeFile(file, text);
    const schema = name === "sitemap.xml" && files.size > 1 ? SITEINDEX_XSD : SITEMAP_XSD;
    const { stderr } = await run(xmllint!, ["--noout", "--schema", schema, file]).catch((e) => e);
    verdicts.set(name, stderr.trim().replace(`${file} `, ""));
  }
  return verdicts;
}

const valid = (files: Map<string, string>) =>
  new Map([...files.keys()].map((n) => [n, "validates"]));

describe.runIf(xmllint !== null)("the sitemap files, against the protocol's schemas", () => {
  it("are valid for one file, with URLs that need escaping", async () => {
    const base = "https://domain-2.example/cataleg";
    const files = sitemapFiles(base, [
      `${base}/`,
      `${base}/audiovisual-detail/1/a-b/`,
      `${base}/director/x/?a=1&b=<2>`,
    ]);
    expect(await validate(files)).toEqual(valid(files));
  });

  it("are valid with each page's language versions as alternates", async () => {
    const base = "https://domain-1.example";
    const url = (prefix: string) => ({
      loc: `${base}/${prefix}category/peliculas/`,
      alternates: [
        ["es", `${base}/category/peliculas/`],
        ["en", `${base}/en/category/peliculas/`],
        ["x-default", `${base}/category/peliculas/`],
      ] as [string, string][],
    });
    const files = sitemapFiles(base, [url(""), url("en/")]);
    expect(files.get("sitemap.xml")).toContain("<xhtml:link");
    expect(await validate(files)).toEqual(valid(files));
  });

  it("are valid when a domain past the limits is split into parts under an index", async () => {
    const base = "https://big.example/cataleg";
    const urls = Array.from(
      { length: MAX_URLS * 2 + 1 },
      (_, i) => `${base}/audiovisual-detail/${i + 1}/obra-${i + 1}/`,
    );
    const files = sitemapFiles(base, urls);
    expect(files.size).toBe(4);
    expect(await validate(files)).toEqual(valid(files));
  });

  it("are told invalid by the check itself when they are", async () => {
    const files = sitemapFiles("https://a.example", ["https://a.example/"]);
    const broken = files.get("sitemap.xml")!.replace("</loc>", "</loc><lastmod>ayer</lastmod>");
    const verdict = (await validate(new Map([["sitemap.xml", broken]]))).get("sitemap.xml")!;
    expect(verdict).toMatch(/lastmod[^]*fails to validate/);
  });
});
