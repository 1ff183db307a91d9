import { formatProblem, sortProblems } from "../../errors.ts";
import type { Command } from "../command.ts";

export const validateCommand: Command = {
  usage: "catalogue validate [--content DIR]",
  help: `  --content DIR        the content folder with the four CSV files (default: content)`,
  options: { content: { type: "string", default: "content" } },
  async run(values, _positionals, io) {
    const { checkContent } = await import("../../content/load.ts");
    const check = await checkContent(values.content as string);
    for (const warning of sortProblems(check.warnings)) io.stderr.write(`${formatProblem(warning)} (warning)\n`);
    for (const problem of sortProblems(check.problems)) io.stderr.write(`${formatProblem(problem)}\n`);
    if (check.catalogue === null) {
      io.stderr.write(`${check.problems.length} problem(s) found\n`);
      return 1;
    }
    const c = check.catalogue;
    io.stdout.write(`content is valid: ${c.domains.length} domains, ${c.directors.size} directors, ${c.works.length} audiovisuals, ${c.images.size} images\n`);
    return 0;
  },
};
