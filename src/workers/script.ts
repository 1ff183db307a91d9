import { COMPILED } from "../program.ts";

/**
 * The script a worker thread runs for the module `entry` (a `.ts` URL beside the caller).
 *
 * The compiled program (lib/, what the command and the package run) has the module as plain
 * JavaScript: the thread runs it as it is. Running from the sources (tests, `npm run dev`), a
 * thread does not inherit the main thread's TypeScript loader: it runs the `.mjs` script beside
 * the entry, which registers tsx (a development dependency) and imports the module.
 */
export function workerScript(entry: URL, compiled = COMPILED): URL {
  return new URL(entry.href.replace(/\.ts$/, compiled ? ".js" : ".mjs"));
}

/**
 * The module `entry` (a `.ts` URL beside the caller) as the running program has it, for a thread
 * started by workerScript to import: the compiled `.js`, or the source itself (the thread's
 * script registered tsx).
 */
export function codeModule(entry: URL, compiled = COMPILED): URL {
  return compiled ? new URL(entry.href.replace(/\.ts$/, ".js")) : entry;
}

/**
 * The Node options of a thread that runs a script of workerScript: the process's own, without
 * those that load tsx (`tsx src/cli/main.ts` passes them, and threads inherit them). Compiled
 * code needs no loader and the sources' script registers its own, while an inherited loader starts a
 * hooks thread in every thread and routes each of its module loads through it, a cost each
 * thread would pay at start (docs/performance.md#the-work-that-is-done-cheaper).
 */
export function threadExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const joined = /^--(?:import|require|loader|experimental-loader)=(.*)$/.exec(arg);
    if (joined !== null && isTsx(joined[1]!)) continue;
    if (
      /^(?:--import|--require|-r|--loader|--experimental-loader)$/.test(arg) &&
      i + 1 < execArgv.length &&
      isTsx(execArgv[i + 1]!)
    ) {
      i++;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}

const isTsx = (specifier: string) => /(^|[\\/])tsx([\\/]|$)/.test(specifier);
