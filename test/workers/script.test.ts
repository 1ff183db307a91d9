import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { threadExecArgv, workerScript } from "../../src/workers/script.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "worker-script-"));
  await writeFile(path.join(root, "entry.ts"), 'import { parentPort } from "node:worker_threads";\nimport { answer } from "./answer.ts";\nconst n: number = answer();\nparentPort!.postMessage(n);\n');
  await writeFile(path.join(root, "answer.ts"), "export const answer = (): number => 41;\n");
});
afterAll(() => rm(root, { recursive: true, force: true }));

const entry = () => pathToFileURL(path.join(root, "entry.ts"));
const run = (url: URL) =>
  new Promise<unknown>((resolve, reject) => {
    const worker = new Worker(url);
    worker.once("message", (message) => void worker.terminate().then(() => resolve(message)));
    worker.once("error", reject);
  });

describe("a worker thread's script", () => {
  it("is its TypeScript modules bundled into one JavaScript file, made again only when a source changed", async () => {
    const first = workerScript(entry(), { root, cache: path.join(root, "cache-a") });
    expect(path.dirname(first.pathname)).toBe(path.join(root, "cache-a"));
    expect(first.pathname).toMatch(/\.mjs$/);
    expect(await run(first)).toBe(41);
    const record = JSON.parse(await readFile(path.join(root, "cache-a", "entry.json"), "utf8")) as { inputs: Record<string, string> };
    expect(Object.keys(record.inputs).sort()).toEqual(["answer.ts", "entry.ts"]);

    // Same sources: the bundle found is used as it is.
    await cp(path.join(root, "cache-a"), path.join(root, "cache-b"), { recursive: true, preserveTimestamps: true });
    const made = await stat(path.join(root, "cache-b", path.basename(first.pathname)));
    const again = workerScript(entry(), { root, cache: path.join(root, "cache-b") });
    expect(path.basename(again.pathname)).toBe(path.basename(first.pathname));
    expect((await stat(again)).mtimeMs).toBe(made.mtimeMs);

    // A source that changed (not the entry): a new bundle, with the new code.
    await writeFile(path.join(root, "answer.ts"), "export const answer = (): number => 42;\n");
    await cp(path.join(root, "cache-a"), path.join(root, "cache-c"), { recursive: true });
    const changed = workerScript(entry(), { root, cache: path.join(root, "cache-c") });
    expect(path.basename(changed.pathname)).not.toBe(path.basename(first.pathname));
    expect(await run(changed)).toBe(42);
  });

  it("is the entry's .mjs script (which registers tsx) when no bundle can be made", async () => {
    await writeFile(path.join(root, "not-a-folder"), "");
    const url = workerScript(entry(), { root, cache: path.join(root, "not-a-folder", "cache") });
    expect(url.href).toBe(pathToFileURL(path.join(root, "entry.mjs")).href);
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
