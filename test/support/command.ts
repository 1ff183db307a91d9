import { spawn } from "node:child_process";
import { CLI, ROOT } from "../helpers/catalogue.ts";

/** What a run of the command gave: its exit code (null when a signal ended it) and its output. */
export interface CommandRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  /** The working folder; the repository's root by default. */
  cwd?: string;
  /** Variables for the command: only PATH and these, unless `inherit`. */
  env?: NodeJS.ProcessEnv;
  /** The test process's whole environment under `env`, instead of PATH alone. */
  inherit?: boolean;
  /** Written to the command's standard input, which is then closed. */
  input?: string;
  /** Another Node binary to run it with. */
  node?: string;
  /** Node's own options, before the script (`--stack-size=…`, `--require …`). */
  nodeArgs?: string[];
  /** Killed (SIGKILL) past this time; the run then ends with that signal. */
  timeoutMs?: number;
}

/**
 * Runs `catalogue …args` (the compiled bin/catalogue.js, as a user runs it) to its end. A failed
 * run is a result, not a rejection: the test asserts its code and output.
 */
export function catalogue(args: string[], o: CommandOptions = {}): Promise<CommandRun> {
  const env = o.inherit ? { ...process.env, ...o.env } : { PATH: process.env.PATH, ...o.env };
  const child = spawn(o.node ?? process.execPath, [...(o.nodeArgs ?? []), CLI, ...args], {
    cwd: o.cwd ?? ROOT,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.on("error", () => {}); // a command that exits before reading its input
  child.stdin.end(o.input ?? "");
  const timer =
    o.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), o.timeoutMs);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
