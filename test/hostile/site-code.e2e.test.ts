import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  builtProject,
  expectNoCrash,
  expectNunjucksRefused,
  expectRefused,
  filesContaining,
  page,
} from "./project.ts";

/**
 * The site folder is markup, styles and templates, never code: nothing in it runs, whether the
 * command validates it (what a pull request's CI does) or builds it. Each payload below tries to
 * write a marker file; the marker must never appear. Nunjucks has no sandbox: it may be refused as
 * a whole (the message names the file and says to use Liquid) or made safe, but its templates
 * never run code.
 */

const project = builtProject();
let marker: string;
beforeAll(() => {
  marker = path.join(project.dir, "marker");
});

/** JavaScript that leaves the marker file behind if it ever runs. */
const payload = () => `process.getBuiltinModule('fs').writeFileSync('${marker}', 'ran')`;

async function reset() {
  await rm(path.join(project.dir, "site"), { recursive: true, force: true });
  await rm(marker, { force: true });
}

describe("JavaScript front matter (item 1: no code from site/)", () => {
  for (const engine of ["js", "javascript"]) {
    const evil = (marker: string) =>
      `---${engine}\n{ title: (process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker)}, "ran"), "Evil") }\n---\nHello\n`;

    it(`validate refuses an own page whose front matter starts ---${engine}, without running it`, async () => {
      await reset();
      await project.write({ "site/pages/evil.md": evil(marker) });
      const result = await project.validate();
      expect(existsSync(marker), "the front matter's code ran during validate").toBe(false);
      expectRefused(result, "site/pages/evil.md", 1, /front matter|javascript|js/i);
    });

    it(`build refuses an own page whose front matter starts ---${engine}, without running it, output kept`, async () => {
      await reset();
      const before = await project.outputDigest();
      await project.write({ "site/pages/evil.md": evil(marker) });
      const result = await project.build();
      expect(existsSync(marker), "the front matter's code ran during build").toBe(false);
      expectRefused(result, "site/pages/evil.md", 1, /front matter|javascript|js/i);
      expect(await project.outputDigest()).toBe(before);
    });
  }
});

describe("Nunjucks constructor chains (item 1: no template reaches a constructor or process)", () => {
  const chains: [string, (code: string) => string][] = [
    ["range.constructor", (code) => `{{ range.constructor(${JSON.stringify(code)})() }}`],
    [
      '"".constructor.constructor',
      (code) => `{{ "".constructor.constructor(${JSON.stringify(code)})() }}`,
    ],
    ["cycler.constructor", (code) => `{{ cycler.constructor(${JSON.stringify(code)})() }}`],
    ["joiner.constructor", (code) => `{{ joiner.constructor(${JSON.stringify(code)})() }}`],
    [
      "__proto__ of the data",
      (code) => `{{ site.__proto__.constructor.constructor(${JSON.stringify(code)})() }}`,
    ],
  ];
  for (const [name, chain] of chains) {
    it(`${name}: validate and build never run it (refused naming Liquid, or at its line)`, async () => {
      await reset();
      const before = await project.outputDigest();
      await project.write({
        "site/_includes/footer.njk": `<footer>\n${chain(payload())}\n</footer>\n`,
      });
      const checked = await project.validate();
      expect(existsSync(marker), "the template's code ran during validate").toBe(false);
      expectNoCrash(checked);
      const built = await project.build();
      expect(existsSync(marker), "the template's code ran during build").toBe(false);
      // Made safe or refused: either way the chain is an error at its line (or Nunjucks is refused whole).
      expectNunjucksRefused(built, "site/_includes/footer.njk");
      expect(await project.outputDigest()).toBe(before);
    });
  }

  it("an own Nunjucks page (site/pages/x.njk) never runs range.constructor either", async () => {
    await reset();
    const before = await project.outputDigest();
    await project.write({
      "site/pages/x.njk": `---\ntitle: X\n---\n{{ range.constructor(${JSON.stringify(payload())})() }}\n`,
    });
    const built = await project.build();
    expect(existsSync(marker), "the page's code ran during build").toBe(false);
    expectNunjucksRefused(built, "site/pages/x.njk");
    expect(await project.outputDigest()).toBe(before);
  });
});

describe("Liquid prototype keys (item 1)", () => {
  it("constructor, __proto__ and toString of the data print nothing of JavaScript's objects", async () => {
    await reset();
    const probes = [
      "{{ site.constructor }}",
      "{{ site.constructor.name }}",
      "{{ site.__proto__ }}",
      '{{ site["constructor"] }}',
      "{{ site.toString }}",
      "{{ site.name.constructor }}",
      '{{ nav.categories | map: "constructor" }}',
      '{% assign k = "__proto__" %}{{ texts[k] }}',
    ];
    await project.write({
      "site/_includes/footer.liquid": `<footer>\n${probes.map((p) => `<p>${p}</p>`).join("\n")}\n</footer>\n`,
    });
    const built = await project.build();
    expectNoCrash(built);
    if (built.code === 1) expectRefused(built, "site/_includes/footer.liquid", "any");
    else {
      const home = (await page(project, "uno.example/index.html"))!;
      const footer = home.slice(home.indexOf("<footer>"));
      expect(footer).not.toMatch(/function|native code|\[object|prototype/i);
      expect(await filesContaining(project, "native code")).toEqual([]);
    }
  });
});
