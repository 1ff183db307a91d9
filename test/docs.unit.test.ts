import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../src/cli/command-list.ts";
import { ROOT } from "./helpers/catalogue.ts";

// Like Datasette's test_docs.py: a flag that a user cannot find in the README is a bug.
describe("documentation", () => {
  it.each(commands.map((c) => [c.name, c] as const))(
    "the README documents every option of `catalogue %s`",
    async (name, entry) => {
      const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
      expect(readme).toContain(`catalogue ${name}`);
      const command = await entry.load();
      for (const option of Object.keys(command.options)) {
        expect(readme, `--${option} of ${name}`).toContain(`--${option}`);
        expect(command.help, `--${option} in the help of ${name}`).toContain(`--${option}`);
      }
    },
  );
});
