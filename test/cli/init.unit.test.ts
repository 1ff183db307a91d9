import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSiteFolder } from "../../src/site/folder/folder.ts";
import { checkContent } from "../../src/content/load.ts";
import { domainView } from "../../src/model/domain-view.ts";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { runCli } from "../reliability/helpers.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-init-")));
afterAll(() => cleanup?.());

/** Every file under `folder` with its size and mtime: what "changes nothing" is checked by. */
async function snapshot(folder: string) {
  const files: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile())
      files[path.relative(folder, file)] =
        `${(await stat(file)).size} ${(await stat(file)).mtimeMs}`;
  }
  return files;
}

describe("catalogue init", () => {
  it("writes a valid starter catalogue into a new project folder, which builds at once", async () => {
    const project = path.join(dir, "new-project");
    const result = await runCli(["init", project]);
    expect(result.stderr).toContain("5 works, 4 directors, 2 domains");
    expect(result.code).toBe(0);
    // Not installed there (nor above, in the temporary folder): npx would not find the command.
    expect(result.stderr).toContain(
      `next:\n  cd ${project}\n  npm install audiovisual-catalogue   first: npx finds the command only where the package is installed\n  npx catalogue dev `,
    );
    // Nothing but content/ and .gitignore was left in the project (no half-written staging folder).
    expect((await readdir(project)).sort()).toEqual([".gitignore", "content", "site"]);
    // The example of the library's own look loads as the build reads it: a page in two languages, a stylesheet, a text.
    const look = readSiteFolder(path.join(project, "site"));
    expect(look.pages.map((p) => `${p.lang ?? "*"} ${p.dir} ${p.title}`).sort()).toEqual([
      "* about/ About the network",
      "ca about/ Sobre la xarxa",
      "es about/ Sobre la red",
    ]);
    expect(look.hasStylesheet).toBe(true);
    expect(look.parts.size).toBe(0);
    expect(look.texts.get("ca")).toEqual({
      empty: "Encara no hi ha cap pel·lícula disponible en aquesta biblioteca.",
    });
    expect(await readFile(path.join(project, ".gitignore"), "utf8")).toBe(
      "# written by catalogue build, dev and deploy\n/dist/\n/.dist.versions/\n/.cache/\n",
    );
    const content = path.join(project, "content");
    const check = await checkContent(content);
    expect(check.problems).toEqual([]);
    const catalogue = check.catalogue!;
    expect(catalogue.works.map((w) => w.name)).toContain("Nosferatu");
    // Every cover and photo the CSVs name was drawn as a real image (the content check opens them).
    expect(catalogue.images.size).toBe(7);
    // Two domains with different windows: one lists every work, the other an ended and a future window less.
    const listed = catalogue.domains.map((domain) =>
      domainView(catalogue, domain, "2026-11-20").orders.year.map((l) => l.work.id),
    );
    expect(listed).toEqual([
      [2, 1, 5, 4, 3],
      [1, 3],
    ]);
    const summary = await buildFixture(content, path.join(project, "dist"));
    expect(summary.domains).toEqual(["biblioteques-llevant.example", "library-south.example"]);
  });

  it("says no install where the package is installed, in the folder or above", async () => {
    const parent = path.join(dir, "installed");
    await mkdir(path.join(parent, "node_modules/audiovisual-catalogue"), { recursive: true });
    await writeFile(
      path.join(parent, "node_modules/audiovisual-catalogue/package.json"),
      '{"name":"audiovisual-catalogue","version":"0.1.0"}',
    );
    const result = await runCli(["init", path.join(parent, "library")]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `next:\n  cd ${path.join(parent, "library")}\n  npx catalogue dev `,
    );
    expect(result.stderr).not.toContain("npm install");
  });

  it("adds to an existing .gitignore only the lines it lacks", async () => {
    const project = path.join(dir, "with-gitignore");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(project);
    await writeFile(path.join(project, ".gitignore"), "node_modules\ndist/");
    expect((await runCli(["init", project])).code).toBe(0);
    expect(await readFile(path.join(project, ".gitignore"), "utf8")).toBe(
      "node_modules\ndist/\n# written by catalogue build, dev and deploy\n/.dist.versions/\n/.cache/\n",
    );
  });

  it("defaults to the working directory, and changes nothing, exit 1, when content/ exists", async () => {
    const project = path.join(dir, "existing");
    const first = await runCli(["init", project]);
    expect(first.code).toBe(0);
    const csv = path.join(project, "content/audiovisuals.csv");
    await writeFile(csv, (await readFile(csv, "utf8")).replace("Nosferatu", "My own edit"));
    const before = await snapshot(project);
    const again = await runCli(["init", project]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^catalogue init: .*content exists: init changed nothing/);
    expect(await snapshot(project)).toEqual(before);
    expect(await readFile(csv, "utf8")).toContain("My own edit");

    const cwd = process.cwd();
    try {
      process.chdir(project);
      expect((await runCli(["init"])).code).toBe(1);
    } finally {
      process.chdir(cwd);
    }
    expect((await runCli(["init", "a", "b"])).code).toBe(1);
  });
});
