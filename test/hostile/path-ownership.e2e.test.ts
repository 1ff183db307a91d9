import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtProject, domainsCsv, expectRefused } from "./project.ts";

/**
 * Each path of a host belongs to one owner: a domain's base path, its language folders, its
 * media folders, its own pages and the product's paths (`api`, `_api`, `assets`, `media`,
 * `browse`, …) never overlap, within a domain or across the domains sharing a host. A language
 * folder is one of the seven or a tag whose primary subtag has 2–3 letters. Anything else is a
 * `FILE:LINE` error from validate and build, the previous output kept. Today a media_url on
 * another library's host root gives that library's pages a year of immutable caching under
 * `serve` and 404s under nginx; on its API path nginx refuses the configuration; a language
 * `media` writes a whole site into the media folder with a warning.
 */

const project = builtProject();

async function reset() {
  await rm(path.join(project.dir, "site"), { recursive: true, force: true });
}

/** validate and build refuse `file` at `line` (a line or any of several), about `about`; the output is kept. */
async function expectOwnerRefused(
  file: string,
  line: number | number[] | null,
  about: RegExp,
  buildFlags: string[] = ["--no-site"],
) {
  expectRefused(await project.validate(), file, line, about);
  const before = await project.outputDigest();
  expectRefused(await project.build(...buildFlags), file, line, about);
  expect(await project.outputDigest()).toBe(before);
}

describe("media folders that take another owner's paths (item 3)", () => {
  const cases: [string, Record<string, string>, Record<string, string>][] = [
    ["uno's media_url on dos's host root", { media_url: "https://dos.example" }, {}],
    ["uno's media_url on dos's API path", { media_url: "https://dos.example/api" }, {}],
    [
      "uno's media_url on dos's list URL",
      { media_url: "https://dos.example/api/v1/videos/audiovisuals" },
      {},
    ],
    ["uno's media_url on dos's director pages", { media_url: "https://dos.example/director" }, {}],
    ["uno's media_url on its own site root", { media_url: "https://uno.example" }, {}],
    ["uno's media_url on its own assets folder", { media_url: "https://uno.example/assets" }, {}],
    ["uno's media_url on its own browse index", { media_url: "https://uno.example/browse" }, {}],
    ["uno's media_url on its own API", { media_url: "https://uno.example/api" }, {}],
    [
      "uno's media_url on its own English version",
      { media_url: "https://uno.example/en", languages: "en" },
      {},
    ],
  ];
  for (const [name, uno, dos] of cases) {
    it(`${name} is refused at its line`, async () => {
      await reset();
      await project.write({ "content/domains.csv": domainsCsv(uno, dos) });
      await expectOwnerRefused("content/domains.csv", 2, /media_url/);
    });
  }

  it("two domains' media folders nested on one media host are refused", async () => {
    await reset();
    await project.write({
      "content/domains.csv": domainsCsv(
        { media_url: "https://media.example/covers" },
        { media_url: "https://media.example/covers/dos" },
      ),
    });
    await expectOwnerRefused("content/domains.csv", [2, 3], /media_url/);
  });
});

describe("base paths that take another domain's paths (item 3)", () => {
  it("uno's base_url inside dos's site (its host root) is refused", async () => {
    await reset();
    await project.write({
      "content/domains.csv": domainsCsv({ base_url: "https://dos.example/uno" }),
    });
    await expectOwnerRefused("content/domains.csv", 2, /base_url/);
  });

  it("two domains' base paths nested on one host are refused", async () => {
    await reset();
    await project.write({
      "content/domains.csv": domainsCsv(
        { base_url: "https://shared.example/cat" },
        { base_url: "https://shared.example/cat/dos" },
      ),
    });
    await expectOwnerRefused("content/domains.csv", [2, 3], /base_url/);
  });
});

describe("language folders (item 3: one of the seven, or a primary subtag of 2–3 letters, and no product path)", () => {
  for (const tag of ["media", "assets", "api", "director", "browse"]) {
    it(`languages "${tag}" is an error at its line, not a warning`, async () => {
      await reset();
      await project.write({ "content/domains.csv": domainsCsv({ languages: tag }) });
      await expectOwnerRefused("content/domains.csv", 2, /languages/);
    });
  }
});

describe("own pages that take a media or language folder (item 3)", () => {
  it("site/pages/covers.md beside a media_url .../covers on the same host is refused", async () => {
    await reset();
    await project.write({
      "content/domains.csv": domainsCsv({ media_url: "https://uno.example/covers" }),
      "site/pages/covers.md": "---\ntitle: Covers\n---\nOur covers.\n",
    });
    await expectOwnerRefused("site/pages/covers.md", null, /covers|media/i, []);
  });

  it("site/pages/de.md on a domain offered in German (de) is refused by validate too", async () => {
    await reset();
    await project.write({
      "content/domains.csv": domainsCsv({ languages: "de" }),
      "site/pages/de.md": "---\ntitle: Deutsch\n---\nHallo.\n",
    });
    await expectOwnerRefused("site/pages/de.md", null, /de/, []);
  });
});
