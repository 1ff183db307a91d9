import path from "node:path";
import { dependencyManifest } from "../../program.ts";
import { defineCommand, usageOf } from "../command.ts";

/** The package's name on npm (`catalogue`, its command, is another package's name there). */
const PACKAGE_NAME = "audiovisual-catalogue";

export const initCommand = defineCommand({
  options: {},
  positionals: {
    DIR: "the project folder (default: the working directory); init writes DIR/content (five public-domain works, two domains, drawn covers), DIR/site (a commented example of the library's own look: a page, a stylesheet, a text, a header template to rename; kept if it exists) and a .gitignore for dist, .dist.versions and .cache (or adds the lines an existing one lacks), and exits 1 without changing anything if DIR/content exists. Its next steps begin with the npm install that npx needs where the package is not installed in DIR or above",
  },
  usage: [{ words: "[DIR]" }],
  more: `
Example:
  npx catalogue init my-catalogue`,
  async run(_values, positionals, io) {
    if (positionals.length > 1) {
      const { UserError } = await import("../../errors.ts");
      throw new UserError(
        `expected at most one folder, got ${positionals.length}; usage: ${usageOf("init", initCommand)}`,
      );
    }
    const project = positionals[0] ?? ".";
    // Imported on use: sharp (the covers) loads only here.
    const { initContent, writeGitignore } = await import("../../init/init.ts");
    const content = await initContent(project);
    const ignored = await writeGitignore(project);
    const { initSite } = await import("../../init/example-site.ts");
    const site = await initSite(project);
    // The commands as they run where the package is installed locally (npx finds its bin there).
    const cd =
      project === "."
        ? ""
        : `cd ${/^[\w./-]+$/.test(project) ? project : JSON.stringify(project)}\n  `;
    // Where npx would not find the package (no node_modules of the folder or above holds it), it
    // would download the unrelated npm package named "catalogue": the install comes first. It is
    // said rather than done or written into a package.json: the project's manifest (its name,
    // where the package comes from: the registry, a tarball, a mirror) is the library's to make,
    // and `npm install` writes one when there is none.
    const install =
      dependencyManifest(PACKAGE_NAME, path.resolve(project)) === null
        ? `npm install ${PACKAGE_NAME}   first: npx finds the command only where the package is installed\n  `
        : "";
    io.stderr.write(
      `wrote ${path.relative(".", content) || content}: 5 works, 4 directors, 2 domains` +
        (site !== null
          ? `; ${path.relative(".", site) || site}: an example of your own look (see site/pages/about.md)`
          : "") +
        (ignored.length > 0
          ? `; ${path.join(project, ".gitignore")}: ${ignored.join(", ")}\n`
          : "\n") +
        `next:\n  ${cd}${install}npx catalogue dev      builds, serves on http://127.0.0.1:8080, rebuilds on every save\n` +
        `  npx catalogue build    the build to publish, into dist/\n`,
    );
  },
});
