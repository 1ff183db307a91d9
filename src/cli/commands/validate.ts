import { formatProblem, sortProblems } from "../../errors.ts";
import { defineCommand } from "../command.ts";
import { pick } from "../option-table.ts";
import { checkFlags } from "../flags.ts";
import { formatWarning } from "../warnings.ts";

export const validateCommand = defineCommand({
  options: pick("content", "site", "strict"),
  more: `
Example:
  npx catalogue validate --content content --strict`,
  async run(values, _positionals, io) {
    await checkFlags(values);
    const { checkContent } = await import("../../content/load.ts");
    const check = await checkContent(values.content);
    // The library's site folder: its templates compiled, its pages and texts checked, as the build does.
    const { siteFolderPath: siteFolder, checkSiteFolder } =
      await import("../../pipeline/site-folder.ts");
    const site = await checkSiteFolder(
      siteFolder(values.content, values.site),
      values.site !== undefined,
      check.catalogue?.domains ?? [],
    );
    check.problems.push(...site.problems);
    check.warnings.push(...site.warnings);
    const strict = values.strict;
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
});
