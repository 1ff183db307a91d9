import { spawn, type ChildProcess } from "node:child_process";
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

/** A long-running command (serve, dev) started by startCatalogue. */
export interface RunningCommand {
  child: ChildProcess;
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  /**
   * The first match of `pattern` in what it prints on `stream` (stdout by default): rejects,
   * with the output, when the command exits first or after `timeoutMs`.
   */
  waitFor(
    pattern: RegExp,
    o?: { stream?: "stdout" | "stderr"; timeoutMs?: number },
  ): Promise<RegExpExecArray>;
  /** Sends `signal` (SIGTERM by default) unless it has ended, and gives the whole run. */
  stop(signal?: NodeJS.Signals): Promise<CommandRun>;
}

/**
 * Starts `catalogue …args` as catalogue() does, without waiting for its end: for the commands
 * that run until stopped. The test stops it (`stop()`, in a `finally` or an `afterAll`).
 */
export function startCatalogue(args: string[], o: CommandOptions = {}): RunningCommand {
  const env = o.inherit ? { ...process.env, ...o.env } : { PATH: process.env.PATH, ...o.env };
  const child = spawn(o.node ?? process.execPath, [...(o.nodeArgs ?? []), CLI, ...args], {
    cwd: o.cwd ?? ROOT,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out.stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out.stderr += chunk));
  child.stdin.on("error", () => {});
  child.stdin.end(o.input ?? "");
  let closed = false;
  const ended = new Promise<CommandRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      closed = true;
      resolve({ code, signal, ...out });
    });
  });
  ended.catch(() => {}); // read by stop(); a failed start also fails waitFor
  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    waitFor(pattern, { stream = "stdout", timeoutMs = 60_000 } = {}) {
      return new Promise((resolve, reject) => {
        const failed = (why: string) =>
          new Error(`catalogue ${args.join(" ")} ${why} before printing ${pattern}:
${out.stdout}${out.stderr}`);
        const check = () => {
          const match = pattern.exec(out[stream]);
          if (match === null) return;
          done();
          resolve(match);
        };
        const exited = () => (done(), reject(failed("exited")));
        const timer = setTimeout(() => (done(), reject(failed("ran out of time"))), timeoutMs);
        const done = () => {
          clearTimeout(timer);
          child[stream].off("data", check);
          child.off("close", exited);
        };
        child[stream].on("data", check);
        child.once("close", exited);
        check();
        if (closed) exited(); // ended before this call: a match above has already resolved
      });
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return ended;
    },
  };
}
