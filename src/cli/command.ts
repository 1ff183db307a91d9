import type { ParseArgsConfig } from "node:util";

/** Where a command prints: stdout for results, stderr for progress, warnings and errors. */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** True when stderr is a terminal: progress is shown only then. */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
}

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One subcommand: its help text, its options (node:util parseArgs) and what it does; its name and summary are in commands/index.ts. */
export interface Command {
  usage: string;
  /** Lines describing each option, printed by --help and checked against the README by a test. */
  help: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Whether the command takes positional words (config takes nginx|caddy). */
  positionals?: boolean;
  run(values: OptionValues, positionals: string[], io: CliIO): Promise<number | void>;
}
