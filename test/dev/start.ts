import { spawn, type ChildProcess } from "node:child_process";

/** A `catalogue dev` process started as a user starts it, once it says where it serves. */
export interface RunningDev {
  process: ChildProcess;
  /** The preview's address (the first domain's). */
  url: string;
  /** Everything it printed on stderr so far. */
  stderr: () => string;
}

export async function startDev(
  bin: string,
  cwd: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningDev> {
  const dev = spawn(process.execPath, [bin, "dev", "--port", "0", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let stderr = "";
  dev.stderr.on("data", (chunk) => (stderr += chunk));
  const url = await devUrl(dev, () => stderr);
  return { process: dev, url, stderr: () => stderr };
}

/** The address a started `catalogue dev` says it serves at (its first build done); fails with `printed()` if it exits first. */
export function devUrl(dev: ChildProcess, printed: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    dev.stdout!.on("data", (chunk) => {
      out += chunk;
      const found = /on (http:\/\/\S+), watching/.exec(out);
      if (found) resolve(found[1]!);
    });
    dev.once("exit", (code) => reject(new Error(`dev exited with ${code}: ${printed()}`)));
  });
}
