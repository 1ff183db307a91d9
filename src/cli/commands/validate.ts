import { formatProblem, sortProblems } from "../../errors.ts";
import type { Command } from "../command.ts";
import { checkFlags } from "../flags.ts";
import { formatWarning, strictHelp, strictOption } from "../warnings.ts";

export const validateCommand: Command = {
  usage: "catalogue validate [--content DIR] [--site DIR] [--strict]",
  help: `  --content DIR        the content folder with the four CSV files (default: content)
  --site DIR           the library's own site folder (default: site beside the content folder)
${strictHelp}

Example:
  npx catalogue validate --content content --strict`,
  options: {
    content: { type: "string", default: "content" },
    site: { type: "string" },
    ...strictOption,
  },
  async run(values, _positionals, io) {
    await checkFlags(values);
    const { checkContent } = await import("../../content/load.ts");
    const check = await checkContent(values.content as string);
    // The library's site folder: its templates compiled, its pages and texts checked, as the build does.
    const { siteFolderPath: siteFolder, checkSiteFolder } =
      await import("../../pipeline/site-folder.ts");
    const site = await checkSiteFolder(
      siteFolder(values.content as string, values.site as string | undefined),
      values.site !== undefined,
      check.catalogue?.domains ?? [],
    );
    check.problems.push(...site.problems);
    check.warnings.push(...site.warnings);
    const strict = values.strict as boolean;
    // Strict: the warnings are problems, printed and counted as such.
    const problems = strict ? [...check.problems, ...check.warnings] : check.problems;
    if (!strict)
      for (const warning of sortProblems(check.warnings))
        io.stderr.write(`${formatWarning(warning)}\n`);
    for (const problem of sortProblems(problems)) io.stderr.write(`${formatProblem(problem)}\n`);
    if (check.catalogue === null || problems.length > 0) {
      io.stderr.write(`${problems.length} problem(s) found\n`);
      return 1;
    }
    const c = check.catalogue;
    // One stand-in per row that names a missing image.
    const drawn =
      check.missing.length === 0
        ? ""
        : `, ${check.missing.length} stand-in(s) for missing images (the build draws them)`;
    io.stdout.write(
      `content is valid: ${c.domains.length} domains, ${c.directors.size} directors, ${c.works.length} audiovisuals, ${c.images.size} images${drawn}\n`,
    );
    return 0;
  },
};
