import { inspect, parseArgs } from "node:util";
import { InputError, UserError } from "../errors.ts";
import type { CliIO, Command } from "./command.ts";
import type { Values } from "./option-table.ts";
import { commands } from "./command-list.ts";
import { packageVersion } from "../program.ts";

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `catalogue ${packageVersion()}: the audiovisual catalogue of a library network, as a static site

Usage: catalogue <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Example (in a folder where audiovisual-catalogue is installed):
  npx catalogue init && npx catalogue dev

Run "catalogue <command> --help" for the options of a command.
Exit codes: 0 success, 1 a problem with the input or the target (message), 2 a bug (stack trace).
`;
}

/** Parses the arguments, runs the command and returns the exit code; only main.ts exits. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(mainHelp());
    return name === undefined ? 1 : 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (entry === undefined) {
    // Loaded on this path only: the main help loads no module it does not print from.
    const { closest } = await import("../content/suggest.ts");
    const meant = closest(
      name,
      commands.map((c) => c.name),
    );
    const hint = meant === undefined ? "" : `; did you mean "${meant}"?`;
    io.stderr.write(`catalogue: unknown command ${JSON.stringify(name)}${hint}\n\n${mainHelp()}`);
    return 1;
  }
  const command = await entry.load();
  // Loaded with the command (which imports them too): the main help reads no option.
  const [{ helpOf, usageOf }, { parseConfig }] = await Promise.all([
    import("./command.ts"),
    import("./option-table.ts"),
  ]);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(helpOf(name, entry.summary, command));
    return 0;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: parseConfig(command.options),
      allowPositionals: command.positionals !== undefined,
      strict: true,
    });
  } catch (error) {
    io.stderr.write(
      `catalogue ${name}: ${await flagProblem(error as Error & { code?: string }, command.options)}\nUsage: ${usageOf(name, command)}\n`,
    );
    return 1;
  }
  try {
    // parseArgs' values, as the options' declaration types them (parseConfig made the parser from it).
    const values = parsed.values as Values<typeof command.options>;
    const code = await command.run(values, parsed.positionals, io);
    return code ?? 0;
  } catch (error) {
    if (error instanceof InputError) {
      io.stderr.write(
        `${error.message}\n${error.problems.length} problem(s) found; nothing was written\n`,
      );
      return 1;
    }
    if (error instanceof UserError) {
      io.stderr.write(`catalogue ${name}: ${error.message}\n`);
      return 1;
    }
    io.stderr.write(
      `catalogue ${name}: internal error (a bug; please report it with this trace)\n${describe(error)}\n`,
    );
    return 2;
  }
}

/** parseArgs's message, or for an unknown flag a shorter one naming the closest known flag. */
async function flagProblem(
  error: Error & { code?: string },
  options: Command["options"],
): Promise<string> {
  const unknown =
    error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
      ? /'(-[^']*)'/.exec(error.message)?.[1]
      : undefined;
  if (unknown === undefined) return error.message;
  const { closest } = await import("../content/suggest.ts");
  const meant = closest(unknown.replace(/^--?/, "").replace(/=.*$/, ""), Object.keys(options));
  return `unknown option ${unknown}${meant === undefined ? "" : `; did you mean --${meant}?`}`;
}

function describe(error: unknown): string {
  const lines: string[] = [];
  for (
    let e: unknown = error;
    e !== undefined && e !== null;
    e = (e as { cause?: unknown }).cause
  ) {
    // A thrown value that is not an Error is shown as it is ("[object Object]" says nothing).
    lines.push(
      e instanceof Error ? (e.stack ?? String(e)) : typeof e === "string" ? e : inspect(e),
    );
    if (lines.length > 1) lines[lines.length - 1] = `caused by: ${lines[lines.length - 1]}`;
  }
  return lines.join("\n");
}
