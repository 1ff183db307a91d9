import path from "node:path";
import type { Command } from "../command.ts";

export const initCommand: Command = {
  usage: "catalogue init [DIR]",
  help: `  DIR                  the project folder (default: the working directory); init writes
                       DIR/content (five public-domain works, two domains, drawn covers)
                       and exits 1 without changing anything if DIR/content exists`,
  options: {},
  positionals: true,
  async run(_values, positionals, io) {
    if (positionals.length > 1) {
      const { UserError } = await import("../../errors.ts");
      throw new UserError(`expected at most one folder, got ${positionals.length}; usage: ${this.usage}`);
    }
    const project = positionals[0] ?? ".";
    // Imported on use: sharp (the covers) loads only here.
    const { initContent } = await import("../../init/init.ts");
    const content = await initContent(project);
    const cd = project === "." ? "" : `cd ${project} && `;
    io.stderr.write(
      `wrote ${path.relative(".", content) || content}: 5 works, 4 directors, 2 domains\n` +
        `next: ${cd}catalogue build && catalogue serve   (or catalogue dev, which rebuilds on every save)\n`,
    );
  },
};
