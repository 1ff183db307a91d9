import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/command-list.ts";
import { run } from "../../src/cli/run.ts";
import { catalogue } from "../support/command.ts";

/**
 * What the compiled command loads to answer `--help`: a command module that imports its
 * pipeline at the top (rather than inside run()) would load packages on every start, and the
 * start-up target (issue 16: `catalogue --help` within 150 ms) would be lost without a failing test.
 *
 * The files of modules the command loads, as Node's own debug log names them: ES modules (`esm`:
 * "Storing file:///… in ModuleLoadMap", imported or required) and CommonJS ones (`module`: load "…").
 * The entry (bin/catalogue.js, CommonJS) loads the compiled ES modules with require(), which
 * module.register's hooks do not see.
 */
async function loaded(args: string[]): Promise<string[]> {
  const { code, stderr } = await catalogue(args, {
    env: { NODE_DEBUG: "esm,module" },
    inherit: true,
  });
  if (code !== 0) throw new Error(`catalogue ${args.join(" ")} exited with ${code}: ${stderr}`);
  const urls = new Set<string>();
  for (const [, url] of stderr.matchAll(/^ESM \d+: Storing (file:\S+)/gm)) urls.add(url!);
  for (const [, file] of stderr.matchAll(/^MODULE \d+: load "([^"]+)"/gm))
    urls.add(pathToFileURL(file!).href);
  return [...urls];
}

describe("the command's start", () => {
  it("runs the compiled program and loads no package for any command's --help", async () => {
    for (const args of commands.map((c) => [c.name, "--help"])) {
      const urls = await loaded(args);
      expect(
        urls.some((url) => url.endsWith("/lib/src/cli/main.js")),
        args.join(" "),
      ).toBe(true);
      expect(
        urls.filter((url) => url.includes("/node_modules/") || url.endsWith(".ts")),
        args.join(" "),
      ).toEqual([]);
    }
  });

  it("prints the main help, the program's own, without loading any of its modules", async () => {
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const urls = await loaded(args);
      expect(
        urls.filter((url) => url.includes("/lib/") || url.includes("/node_modules/")),
        args.join(" "),
      ).toEqual([]);
      const { code, stdout } = await catalogue(args, { inherit: true });
      expect(code, args.join(" ")).toBe(0);
      expect(stdout, args.join(" ")).toBe(await helpOfTheSources());
    }
  });

  it("loads no command's module when the program prints the main help itself (two arguments: not from lib/help.txt)", async () => {
    const urls = await loaded(["--help", "--help"]);
    const modules = urls
      .filter((url) => url.includes("/lib/src/"))
      .map((url) => url.slice(url.indexOf("/lib/src/") + "/lib/src/".length));
    expect(modules.sort()).toEqual([
      "cli/command-list.js",
      "cli/main.js",
      "cli/run.js",
      "errors.js",
      "program.js",
    ]);
  });
});

/** What run() of the sources prints for --help. */
async function helpOfTheSources(): Promise<string> {
  let text = "";
  const sink = {
    write: (chunk: string) => ((text += chunk), true),
  } as unknown as NodeJS.WritableStream;
  await run(["--help"], {
    stdout: sink,
    stderr: sink,
    interactive: false,
    env: {},
  });
  return text;
}
