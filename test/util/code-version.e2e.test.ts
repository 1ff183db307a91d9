import { execFile } from "node:child_process";
import { appendFile, cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_CODE, apiFiles, type OutputFile } from "../../src/api/pages.ts";
import { EXPORTS_CODE, sheetKey, type SheetKeyHead } from "../../src/exports/xlsx.ts";
import { domainView } from "../../src/model/domain-view.ts";
import { MEDIA_CODE } from "../../src/media/processed-images.ts";
import { pageKeys, SITE_CODE } from "../../src/site/keys.ts";
import type { DomainSite, SitePage } from "../../src/site/model.ts";
import { codeVersion, sourceFiles, type CodeConcern } from "../../src/util/code-version.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { catalogueOf, DOMAIN, work } from "../helpers/model.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CONCERNS = {
  api: API_CODE,
  exports: EXPORTS_CODE,
  site: SITE_CODE,
  media: MEDIA_CODE,
} satisfies Record<string, CodeConcern>;
type Concern = keyof typeof CONCERNS;

let dir: string;
let cleanup: () => Promise<void>;

/** A copy of the program's code (src/ and the Eleventy configuration), to edit. */
async function copyOfCode(name: string): Promise<string> {
  const root = path.join(dir, name);
  await cp(path.join(ROOT, "src"), path.join(root, "src"), { recursive: true });
  await cp(path.join(ROOT, ".eleventy.ts"), path.join(root, ".eleventy.ts"));
  return root;
}

const versionsOf = (root: string) =>
  Object.fromEntries(
    Object.entries(CONCERNS).map(([name, concern]) => [name, codeVersion(concern, root)]),
  ) as Record<Concern, string>;

/** The concerns whose version differs between two copies of the code. */
function changedConcerns(a: string, b: string): Concern[] {
  const [before, after] = [versionsOf(a), versionsOf(b)];
  return (Object.keys(CONCERNS) as Concern[]).filter((name) => before[name] !== after[name]);
}

// The keys of each kind of file, for a code version of its concern.
const view = domainView(catalogueOf([work(1), work(2), work(3)]), DOMAIN, "2026-11-20");
const digests = new Map(
  view.orders.name.map((listed) => [listed, `${listed.work.id}`.padStart(32, "0")]),
);
const apiKeys = (version: string) =>
  apiFiles(view, (rel) => rel, digests, version)
    .flatMap((run) => [...run])
    .filter((f): f is OutputFile & { key: string } => "key" in f)
    .map((f) => f.key);
const HEAD: SheetKeyHead = {
  sheetName: "Obras",
  headers: ["id"],
  rowCount: 3,
  properties: { title: "t", subject: "s", keywords: "k", language: "es", date: "2026-11-20" },
};
const SITE = {
  categories: new Set(["a"]),
  images: new Map(),
  strings: {},
} as unknown as DomainSite;
const PAGE = { kind: "index", site: { folder: "uno.example/" }, dir: "" } as unknown as SitePage;
const keysOf = (versions: Record<Concern, string>): Partial<Record<Concern, string[]>> => ({
  api: apiKeys(versions.api),
  exports: [sheetKey(HEAD, "rows", versions.exports)],
  site: [pageKeys(SITE, versions.site, digests)(PAGE)],
});

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-code-version-"));
});
afterAll(() => cleanup());

describe("code versions", () => {
  let original: string;
  beforeAll(async () => {
    original = await copyOfCode("original");
  });

  it("are those of the running code for a copy of it, and stable", () => {
    expect(versionsOf(original)).toEqual(versionsOf(ROOT));
    expect(versionsOf(ROOT)).toEqual(
      Object.fromEntries(
        Object.entries(CONCERNS).map(([name, concern]) => [name, codeVersion(concern)]),
      ),
    );
    expect(new Set(Object.values(versionsOf(ROOT))).size).toBe(Object.keys(CONCERNS).length);
  });

  it.each([
    ["a serializer of the API", "src/api/serialize.ts", ["api"]],
    ["the API's links", "src/api/links.ts", ["api"]],
    ["the spreadsheets' parts", "src/exports/xlsx-parts.ts", ["exports"]],
    ["the spreadsheets' zip", "src/util/zip.ts", ["exports"]],
    ["the spreadsheets' columns", "src/exports/columns.ts", ["exports"]],
    ["a template", "src/site/templates/work.ts", ["site"]],
    ["a site asset", "src/site/assets/style.css", ["site"]],
    [
      "the images' processing (the pages show them)",
      "src/media/processed-images.ts",
      ["site", "media"],
    ],
    ["the layout all of them use", "src/api/layout.ts", ["api", "exports", "site"]],
  ] as const)(
    "an edit of %s (%s) changes the keys of exactly the files its concern makes: %j",
    async (_, file, concerns) => {
      const edited = await copyOfCode(file.replaceAll("/", "_"));
      await appendFile(
        path.join(edited, file),
        file.endsWith(".css") ? "\n/* edited */\n" : "\nexport const EDITED = 1;\n",
      );
      expect(changedConcerns(original, edited)).toEqual(concerns);
      const [before, after] = [keysOf(versionsOf(original)), keysOf(versionsOf(edited))];
      for (const name of ["api", "exports", "site"] as const) {
        expect(before[name]!.length).toBeGreaterThan(0);
        // Every file of an edited concern has a new key; every other file keeps its key.
        before[name]!.forEach((key, i) =>
          concerns.includes(name as never)
            ? expect(after[name]![i]).not.toBe(key)
            : expect(after[name]![i]).toBe(key),
        );
      }
    },
  );

  it("counts a module that a concern starts to import", async () => {
    const edited = await copyOfCode("new-module");
    await writeFile(path.join(edited, "src/api/extra.ts"), "export const extra = 1;\n");
    expect(changedConcerns(original, edited)).toEqual([]); // not loaded: it makes nothing
    const serializer = path.join(edited, "src/api/serialize.ts");
    await writeFile(
      serializer,
      `import { extra } from "./extra.ts";\n${await readFile(serializer, "utf8")}`,
    );
    expect(sourceFiles(edited, API_CODE.entries)).toContain("src/api/extra.ts");
    const withExtra = codeVersion(API_CODE, edited);
    await writeFile(path.join(edited, "src/api/extra.ts"), "export const extra = 2;\n");
    expect(codeVersion(API_CODE, edited)).not.toBe(withExtra);
  });
});

describe("code versions of the compiled program (lib/, as packed)", () => {
  it("follow the compiled modules' imports and differ from the sources' by their bytes only", async () => {
    const lib = path.join(ROOT, "lib");
    const script = [
      `const { codeVersion, sourceFiles } = await import(${JSON.stringify(path.join(lib, "src/util/code-version.js"))});`,
      `const { API_CODE } = await import(${JSON.stringify(path.join(lib, "src/api/pages.js"))});`,
      `const { EXPORTS_CODE } = await import(${JSON.stringify(path.join(lib, "src/exports/xlsx.js"))});`,
      `const { SITE_CODE } = await import(${JSON.stringify(path.join(lib, "src/site/keys.js"))});`,
      `const files = (c) => sourceFiles(${JSON.stringify(lib)}, c.entries.map((e) => e.replace(/\\.ts$/, ".js")));`,
      `console.log(JSON.stringify({ api: files(API_CODE), exports: files(EXPORTS_CODE), site: files(SITE_CODE), versions: [API_CODE, EXPORTS_CODE, SITE_CODE].map((c) => codeVersion(c)) }));`,
    ].join("\n");
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--input-type=module",
      "-e",
      script,
    ]);
    const compiled = JSON.parse(stdout) as Record<"api" | "exports" | "site", string[]> & {
      versions: string[];
    };
    for (const name of ["api", "exports", "site"] as const) {
      // The same modules, by their compiled names (type-only imports are erased in both).
      const sources = sourceFiles(ROOT, CONCERNS[name].entries).filter((f) => !f.endsWith(".d.ts"));
      expect(compiled[name]).toEqual(sources.map((f) => f.replace(/\.ts$/, ".js")).sort());
    }
    expect(compiled.api).toContain("src/api/serialize.js");
    expect(compiled.exports).toContain("src/exports/xlsx-parts.js");
    expect(compiled.versions.every((v) => /^[0-9a-f]{32}$/.test(v))).toBe(true);
    expect(new Set(compiled.versions).size).toBe(3);
  });
});
