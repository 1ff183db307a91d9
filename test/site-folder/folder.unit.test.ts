import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/errors.ts";
import { readSiteFolder } from "../../src/site/folder/folder.ts";
import { tempDir } from "../helpers/catalogue.ts";

/**
 * A site folder read and refused before any build (src/site/folder/folder.ts); what a build makes
 * of one is in test/site-folder/builds.e2e.test.ts.
 */

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-site-folder-")));
afterAll(() => cleanup());

describe("a site folder's problems", () => {
  const folder = () => path.join(dir, "bad-site");
  const problems = (at: string) => {
    try {
      readSiteFolder(at);
    } catch (error) {
      return (error as InputError).problems.map(
        (p) =>
          `${path.relative(dir, p.file)}${p.line !== undefined ? `:${p.line}` : ""}: ${p.message}`,
      );
    }
    return [];
  };

  it("is none when the folder does not exist, an error when it was named (--site)", () => {
    expect(readSiteFolder(path.join(dir, "no-such-site")).dir).toBeNull();
    expect(() => readSiteFolder(path.join(dir, "no-such-site"), true)).toThrow(
      /^--site: .*no-such-site is not a folder/,
    );
  });

  it("names the file and the line of an unknown text key, bad front matter, a page taking the product's path", async () => {
    await rm(folder(), { recursive: true, force: true });
    const put = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(folder(), rel)), { recursive: true });
      await writeFile(path.join(folder(), rel), text);
    };
    await put("i18n/fr.json", '{\n  "skip": "Aller au contenu",\n  "skipp": "x"\n}\n');
    await put("i18n/de.json", "{}");
    await put("pages/no-title.md", "---\nnav: 2\n---\nx\n");
    await put("pages/broken.md", "---\ntitle: [\n---\nx\n");
    await put("pages/director.md", "---\ntitle: D\n---\nx\n");
    // Kept for browsing's pages (util/product-paths.ts), a folder of them too.
    await put("pages/decade.md", "---\ntitle: D\n---\nx\n");
    await put("pages/leaving/soon.md", "---\ntitle: S\n---\nx\n");
    await put("pages/en/only-english.md", "---\ntitle: E\n---\nx\n");
    await put("_includes/footer.njk", "<footer>\n{{ site.name }}\n</footer>\n");
    await put("_includes/header.liquid", "<header>\n{% if x %}\n");
    const found = problems(folder());
    expect(found).toContainEqual(
      'bad-site/i18n/fr.json:3: unknown key "skipp": the keys are those of the package\'s i18n/fr.json',
    );
    expect(
      found.some((p) => p.startsWith('bad-site/i18n/de.json: no interface language "de.json"')),
    ).toBe(true);
    expect(
      found.some((p) =>
        p.startsWith('bad-site/pages/no-title.md:1: front matter: "title" is required'),
      ),
    ).toBe(true);
    expect(found.some((p) => /^bad-site\/pages\/broken\.md:\d+: front matter:/.test(p))).toBe(true);
    expect(found).toContainEqual(
      "bad-site/pages/director.md: /director/ is the catalogue's own: choose another path for this page",
    );
    for (const [file, name] of [
      ["decade.md", "decade"],
      ["leaving/soon.md", "leaving"],
    ])
      expect(found).toContainEqual(
        `bad-site/pages/${file}: /${name}/ is the catalogue's own: choose another path for this page`,
      );
    expect(
      found.some((p) => p.startsWith("bad-site/pages/en/only-english.md: no page only-english/")),
    ).toBe(true);
    expect(found).toContainEqual(
      "bad-site/_includes/footer.njk: Nunjucks templates can run code on the machine that builds (Nunjucks has no sandbox): write it in Liquid (footer.liquid); docs/site.md#templates",
    );
    expect(found.some((p) => /^bad-site\/_includes\/header\.liquid:2: .*not closed/.test(p))).toBe(
      true,
    );
  });
});
