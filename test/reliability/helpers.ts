import { execFile } from "node:child_process";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { run } from "../../src/cli/run.ts";
import { MANIFEST_PATH, readManifest } from "../../src/output/tree.ts";
import { hashFile } from "../../src/util/hash.ts";
import { CLI } from "../helpers/catalogue.ts";

/** Every file of the output version `out` points at, by path, with its MD5: equal snapshots, equal bytes. */
export async function snapshot(out: string): Promise<Record<string, string>> {
  const real = await realpath(out);
  const result: Record<string, string> = {};
  for (const entry of await readdir(real, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      result[path.relative(real, path.join(entry.parentPath, entry.name))] = (
        await hashFile(path.join(entry.parentPath, entry.name))
      ).md5;
  }
  return result;
}

/**
 * The output is whole: exactly the files its manifest lists, each with the listed MD5, or the
 * listed size for files written with a key (the build does not hash those).
 */
export async function manifestMatches(out: string): Promise<boolean> {
  const files = await snapshot(out);
  delete files[MANIFEST_PATH];
  const real = await realpath(out);
  const manifest = await readManifest(real);
  for (const [rel, entry] of manifest) {
    if (files[rel] === undefined) return false;
    if (
      entry.md5 !== undefined
        ? entry.md5 !== files[rel]
        : entry.size !== (await stat(path.join(real, rel))).size
    )
      return false;
  }
  return Object.keys(files).length === manifest.size;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real command line (bin/catalogue.js) and returns its exit code and output. `shell`
 * prefixes the command with shell text (like `ulimit -f 4;`); `uid`/`gid` run it as another user.
 */
export function cli(
  args: string[],
  options: {
    cwd?: string;
    shell?: string;
    uid?: number;
    gid?: number;
    env?: NodeJS.ProcessEnv;
    bin?: string;
  } = {},
): Promise<CliResult> {
  const bin = options.bin ?? CLI;
  const quoted = [process.execPath, bin, ...args]
    .map((a) => `'${a.replaceAll("'", `'\\''`)}'`)
    .join(" ");
  const [file, argv] =
    options.shell === undefined
      ? [process.execPath, [bin, ...args]]
      : ["/bin/bash", ["-c", `${options.shell} exec ${quoted}`]];
  return new Promise((done) => {
    execFile(
      file,
      argv,
      {
        cwd: options.cwd,
        uid: options.uid,
        gid: options.gid,
        env: options.env ?? process.env,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The command line's own code (src/cli/run.ts) in this process: same exit code and output, no start-up cost. */
export async function runCli(args: string[]): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (s: string) => void) =>
    ({ write: (s: string) => (append(s), true) }) as unknown as NodeJS.WritableStream;
  const io = {
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    interactive: false,
    env: process.env,
  };
  const code = await run(args, io);
  return { code, stdout, stderr };
}
