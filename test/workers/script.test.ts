import { access } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { threadExecArgv, workerScript } from "../../src/workers/script.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Every module the program runs in a worker thread (new URL("./x.ts", import.meta.url) in src/). */
const THREADS = ["src/workers/writer.ts", "src/site/search-worker.ts"];

const run = (url: URL, message: unknown) =>
  new Promise<unknown>((resolve, reject) => {
    const worker = new Worker(url);
    worker.once("message", (reply) => void worker.terminate().then(() => resolve(reply)));
    worker.once("error", reject);
    worker.postMessage(message);
  });

describe("a worker thread's script", () => {
  it("is the compiled JavaScript module in lib/ for the compiled program: no loader, no bundling at run time", async () => {
    for (const rel of THREADS) {
      const url = workerScript(pathToFileURL(path.join(ROOT, "lib", rel)), true);
      expect(fileURLToPath(url)).toBe(path.join(ROOT, "lib", rel.replace(/\.ts$/, ".js")));
      // The test run compiles first (test/setup/compile.ts): each thread's module is there.
      await access(url);
    }
  });

  it("is the .mjs script beside the source, which registers tsx, when running from the sources", async () => {
    for (const rel of THREADS) {
      const url = workerScript(pathToFileURL(path.join(ROOT, rel)), false);
      expect(fileURLToPath(url)).toBe(path.join(ROOT, rel.replace(/\.ts$/, ".mjs")));
      await access(url);
    }
  });

  it("runs a compiled writer thread that answers a request without any TypeScript loader", async () => {
    const url = workerScript(pathToFileURL(path.join(ROOT, "lib/src/workers/writer.ts")), true);
    // "warm" loads what the thread writes spreadsheets with, and answers with the request's id.
    const reply = (await run(url, { id: 7, kind: "warm" })) as { id: number; error?: unknown };
    expect(reply.error).toBeUndefined();
    expect(reply.id).toBe(7);
  });

  it("runs without the tsx loader the process was started with, keeping its other options", () => {
    // What `tsx src/cli/main.ts` gives node, in both spellings.
    const tsx = ["--require", "/app/node_modules/tsx/dist/preflight.cjs", "--import", "file:///app/node_modules/tsx/dist/loader.mjs"];
    expect(threadExecArgv([...tsx, "--max-old-space-size=2048"])).toEqual(["--max-old-space-size=2048"]);
    expect(threadExecArgv(["--import=tsx", "--enable-source-maps", "--import", "./other.mjs"])).toEqual(["--enable-source-maps", "--import", "./other.mjs"]);
    expect(threadExecArgv(["--import", "tsx/esm", "--require", "tsx-like-but-not/x.cjs"])).toEqual(["--require", "tsx-like-but-not/x.cjs"]);
    expect(threadExecArgv([])).toEqual([]);
  });
});
