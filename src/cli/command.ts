import {
  helpLines,
  optionLines,
  usageLine,
  type Options,
  type UsageForm,
  type Values,
} from "./option-table.ts";

/** Where a command prints: stdout for results, stderr for progress, warnings and errors. */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** True when stderr is a terminal: progress is shown only then. */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * One subcommand: its options (declared in option-table.ts, from which the parser, the help and the
 * usage line are made) and what it does; its name and summary are in command-list.ts.
 */
export interface Command<O extends Options = Options> {
  options: O;
  /** The positional words it takes (config: nginx|caddy…), each with its help text; none if absent. */
  positionals?: Record<string, string>;
  /** The ways to call it, one usage line each (default: one line with every option). */
  usage?: UsageForm[];
  /** The help's text after the option lines: notes, then the example. */
  more: string;
  run(values: Values<O>, positionals: string[], io: CliIO): Promise<number | void>;
}

/** A command, its values typed from its options. */
export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}

/** The usage lines of a command, as `--help` and a usage error print them. */
export function usageOf(name: string, command: Command): string {
  return (command.usage ?? [{}])
    .map((form) => usageLine(name, command.options, form))
    .join("\n       ");
}

/** What `catalogue NAME --help` prints. */
export function helpOf(name: string, summary: string, command: Command): string {
  const lines = [
    helpLines(Object.entries(command.positionals ?? {})),
    optionLines(command.options),
  ].filter((l) => l !== "");
  return `Usage: ${usageOf(name, command)}\n\n${summary}\n\nOptions:\n${lines.join("\n")}\n${command.more}\n`;
}
