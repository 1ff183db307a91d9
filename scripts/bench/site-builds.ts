import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

/**
 * Whole site builds, each in its own process (build-child.ts with the compiled program: run
 * `npm run compile` first), for the benchmarks that compare two kinds of site in the same run
 * (bench-languages.ts, bench-look.ts).
 */

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

/** What build-child.ts prints of one build. */
export interface Child {
  seconds: number;
  maxRssMB: number;
  userSeconds: number;
  systemSeconds: number;
  files: number;
  written: number;
}

/** One site build of `content` into `out` at `date`, run in `cwd` (the image cache is cwd/.cache). */
export async function buildChild(
  cwd: string,
  content: string,
  out: string,
  date: string,
): Promise<Child> {
  const { stdout } = await exec(
    TSX,
    [path.join(ROOT, "scripts/bench/build-child.ts"), content, out, date, "--site"],
    {
      cwd,
      env: { ...process.env, BENCH_COMPILED: "1" },
      maxBuffer: 1 << 26,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Child;
}

/** Removes an output folder and its versions: the next build starts from nothing. */
export async function fresh(out: string) {
  await rm(out, { recursive: true, force: true });
  await rm(path.join(path.dirname(out), `.${path.basename(out)}.versions`), {
    recursive: true,
    force: true,
  });
}

/** CPU seconds of a build's process, every thread (steadier than its wall time on a busy machine). */
export const cpu = (c: Child) => c.userSeconds + c.systemSeconds;

/**
 * `runs` pairs of full builds of two content folders, alternated (the order swapped every other
 * pair: both meet the same neighbours), each from nothing into `dir`/out-KIND; `told` hears each.
 */
export async function alternatedBuilds<K extends string>(
  dir: string,
  date: string,
  runs: number,
  contents: Record<K, string>,
  told: (kind: K, child: Child) => void,
): Promise<Record<K, Child>[]> {
  const kinds = Object.keys(contents) as K[];
  const pairs: Record<K, Child>[] = [];
  for (let i = 0; i < runs; i++) {
    const pair = {} as Record<K, Child>;
    for (const kind of i % 2 === 0 ? kinds : [...kinds].reverse()) {
      const out = path.join(dir, `out-${kind}`);
      await fresh(out);
      pair[kind] = await buildChild(dir, contents[kind], out, date);
      told(kind, pair[kind]);
    }
    pairs.push(pair);
  }
  return pairs;
}
