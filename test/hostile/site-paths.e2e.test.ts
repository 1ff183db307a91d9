import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtProject, expectNunjucksRefused, expectRefused, filesContaining } from "./project.ts";

/**
 * Nothing in the site folder reads outside it: includes by absolute path, `..`, links (to a file
 * or a folder outside), a sibling folder whose name starts like `_includes`, and files of the
 * folder that are links themselves (a part, an own page, an asset, a text file). Each is a
 * `FILE:LINE` error (or `FILE:` for a link, which has no line of its own) from validate and build,
 * the secret is published nowhere, the previous output is kept.
 */

const SECRET = "SECRET-OUTSIDE-THE-SITE-7d1e";
/** A folder beside site/ (not inside it) holding what must never be read. */
let outside: string;
const project = builtProject([], async (made) => {
  outside = path.join(made.dir, "outside");
  await made.write({
    "outside/secret.txt": `${SECRET}\n`,
    "outside/secret.liquid": `${SECRET}\n`,
    "outside/secret.njk": `${SECRET}\n`,
    "outside/page.md": `---\ntitle: Leak\n---\n${SECRET}\n`,
    "outside/texts.json": `{ "empty": "${SECRET}" }\n`,
  });
});

async function reset() {
  await rm(path.join(project.dir, "site"), { recursive: true, force: true });
}

/** validate and build both refuse, naming `file` (at `line`), the secret is nowhere in the output, which is kept. */
async function expectBothRefuse(file: string, line: number | "any" | null) {
  const before = await project.outputDigest();
  const checked = await project.validate();
  expectRefused(checked, file, line);
  const built = await project.build();
  expectRefused(built, file, line);
  expect(await filesContaining(project, SECRET)).toEqual([]);
  expect(await project.outputDigest()).toBe(before);
}

/**
 * Only the build renders: it refuses, naming `file` at a line (a Nunjucks file may instead be
 * refused whole, naming Liquid); the secret is nowhere in the output, which is kept.
 */
async function expectBuildRefuses(file: string) {
  const before = await project.outputDigest();
  const built = await project.build();
  expect(await filesContaining(project, SECRET), "the secret was published").toEqual([]);
  if (file.endsWith(".njk")) expectNunjucksRefused(built, file);
  else expectRefused(built, file, "any");
  expect(await project.outputDigest()).toBe(before);
}

describe("includes that leave _includes/ (item 1: nothing reads outside site/)", () => {
  for (const engine of ["liquid", "njk"] as const) {
    const footer = `site/_includes/footer.${engine}`;
    const include = (name: string) => `{% include "${name}" %}`;

    it(`${engine}: an include by absolute path is an error at its line`, async () => {
      await reset();
      await project.write({
        [footer]: `<footer>\n${include(path.join(outside, `secret.${engine}`))}\n</footer>\n`,
      });
      await expectBuildRefuses(footer);
    });

    it(`${engine}: an include climbing out with .. is an error at its line`, async () => {
      await reset();
      await project.write({
        [footer]: `<footer>\n${include(`../../outside/secret.${engine}`)}\n</footer>\n`,
      });
      await expectBuildRefuses(footer);
    });

    it(`${engine}: an include of a link in _includes/ to a file outside site/ is an error at its line`, async () => {
      await reset();
      await project.link(`site/_includes/secret.${engine}`, path.join(outside, `secret.${engine}`));
      await project.write({ [footer]: `<footer>\n${include(`secret.${engine}`)}\n</footer>\n` });
      await expectBuildRefuses(footer);
    });

    it(`${engine}: an include through a linked folder in _includes/ is an error at its line`, async () => {
      await reset();
      await project.link("site/_includes/partials", outside);
      await project.write({
        [footer]: `<footer>\n${include(`partials/secret.${engine}`)}\n</footer>\n`,
      });
      await expectBuildRefuses(footer);
    });

    it(`${engine}: an include of a sibling folder named like _includes (site/_includes_evil/) is an error at its line`, async () => {
      await reset();
      await project.write({
        [`site/_includes_evil/x.${engine}`]: `${SECRET}\n`,
        [footer]: `<footer>\n${include(`../_includes_evil/x.${engine}`)}\n</footer>\n`,
      });
      await expectBuildRefuses(footer);
    });
  }
});

describe("files of site/ that are links out of it (item 1: symlinks included)", () => {
  it("a part linked to /etc/hostname (site/_includes/header.liquid) is refused", async () => {
    await reset();
    await project.link("site/_includes/header.liquid", "/etc/hostname");
    await expectBothRefuse("site/_includes/header.liquid", null);
  });

  const links: [string, string][] = [
    ["site/_includes/footer.liquid", "secret.liquid"],
    ["site/pages/leak.md", "page.md"],
    ["site/assets/leak.txt", "secret.txt"],
    ["site/i18n/es.json", "texts.json"],
  ];
  for (const [file, target] of links) {
    it(`${file} linked to a file outside site/ is refused`, async () => {
      await reset();
      await project.link(file, path.join(outside, target));
      await expectBothRefuse(file, null);
    });
  }
});
