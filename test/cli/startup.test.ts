import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands/index.ts";
import { CLI, tempDir } from "../helpers/catalogue.ts";

/**
 * What the compiled command loads to answer `--help`: a command module that imports its
 * pipeline at the top (rather than inside run()) would load packages on every start, and the
 * start-up target (issue 16: `catalogue --help` within 150 ms) would be lost without a failing test.
 */
let dir: string;
let cleanup: () => Promise<void>;
let tracer: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-startup-"));
  // A module hook that prints every module loaded (Node's module.register), one URL a line.
  const hooks = path.join(dir, "hooks.mjs");
  await writeFile(hooks, `export async function load(url, context, next) {\n  process.stderr.write("loaded " + url + "\\n");\n  return next(url, context);\n}\n`);
  tracer = path.join(dir, "trace.mjs");
  await writeFile(tracer, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
});
afterAll(() => cleanup?.());

async function loaded(args: string[]): Promise<string[]> {
  const { stderr } = await promisify(execFile)(process.execPath, ["--import", tracer, CLI, ...args]);
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("loaded file:"))
    .map((line) => line.slice("loaded ".length));
}

describe("the command's start", () => {
  it("runs the compiled program and loads no package for --help, nor for any command's --help", async () => {
    for (const args of [["--help"], ...commands.map((c) => [c.name, "--help"])]) {
      const urls = await loaded(args);
      expect(urls.some((url) => url.endsWith("/lib/src/cli/main.js")), args.join(" ")).toBe(true);
      expect(urls.filter((url) => url.includes("/node_modules/") || url.endsWith(".ts")), args.join(" ")).toEqual([]);
    }
  });

  it("loads no command's module for the main --help: only the command line's own few", async () => {
    const urls = await loaded(["--help"]);
    const modules = urls.filter((url) => url.includes("/lib/src/")).map((url) => url.slice(url.indexOf("/lib/src/") + "/lib/src/".length));
    expect(modules.sort()).toEqual(["cli/commands/index.js", "cli/main.js", "cli/run.js", "errors.js", "program.js"]);
  });
});
