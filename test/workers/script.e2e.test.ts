import { access, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { sheetJob } from "../../src/exports/sheet-job.ts";
import { writeSheet, type SheetSpec } from "../../src/exports/xlsx.ts";
import { codeModule, threadExecArgv, workerScript } from "../../src/workers/script.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Every module the program runs in a worker thread (new URL("./x.ts", import.meta.url) in src/). */
const THREADS = ["src/output/writer-thread.ts"];

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
    const url = workerScript(
      pathToFileURL(path.join(ROOT, "lib/src/output/writer-thread.ts")),
      true,
    );
    // "warm" loads what the thread writes spreadsheets with, and answers with the request's id.
    const reply = (await run(url, { id: 7, kind: "warm" })) as { id: number; error?: unknown };
    expect(reply.error).toBeUndefined();
    expect(reply.id).toBe(7);
  });

  it("runs a job another layer gives it, from the compiled module the job names: a spreadsheet, the same bytes as written here", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "thread-job-"));
    try {
      const spec = (): SheetSpec => ({
        sheetName: "Altas",
        headers: ["Título", "Año"],
        widths: [20, 6],
        rowCount: 2,
        rows: [
          [
            { kind: "text", value: "Ágora" },
            { kind: "number", value: 2009 },
          ],
          [{ kind: "text", value: "<&>" }, null],
        ],
        properties: { title: "t", subject: "s", keywords: "k", language: "es", date: "2026-11-26" },
      });
      const job = sheetJob(path.join(dir, "thread.xlsx"), spec());
      // The job names its source module; the compiled thread imports the compiled one (codeModule).
      expect(fileURLToPath(job.module)).toBe(path.join(ROOT, "src/exports/sheet-job.ts"));
      const compiled = codeModule(
        pathToFileURL(path.join(ROOT, "lib/src/exports/sheet-job.ts")),
        true,
      );
      const url = workerScript(
        pathToFileURL(path.join(ROOT, "lib/src/output/writer-thread.ts")),
        true,
      );
      const reply = (await run(url, {
        id: 3,
        kind: "job",
        module: compiled.href,
        name: job.name,
        input: job.input,
      })) as { id: number; error?: unknown };
      expect(reply).toEqual({ id: 3 });
      await writeSheet(path.join(dir, "here.xlsx"), spec());
      expect(await readFile(path.join(dir, "thread.xlsx"))).toEqual(
        await readFile(path.join(dir, "here.xlsx")),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names a job's module as the running program has it: the compiled .js, else the source", () => {
    const source = pathToFileURL(path.join(ROOT, "src/exports/sheet-job.ts"));
    expect(codeModule(source, true).href).toBe(
      pathToFileURL(path.join(ROOT, "src/exports/sheet-job.js")).href,
    );
    expect(codeModule(source, false).href).toBe(source.href);
  });

  it("runs without the tsx loader the process was started with, keeping its other options", () => {
    // What `tsx src/cli/main.ts` gives node, in both spellings.
    const tsx = [
      "--require",
      "/app/node_modules/tsx/dist/preflight.cjs",
      "--import",
      "file:///app/node_modules/tsx/dist/loader.mjs",
    ];
    expect(threadExecArgv([...tsx, "--max-old-space-size=2048"])).toEqual([
      "--max-old-space-size=2048",
    ]);
    expect(
      threadExecArgv(["--import=tsx", "--enable-source-maps", "--import", "./other.mjs"]),
    ).toEqual(["--enable-source-maps", "--import", "./other.mjs"]);
    expect(threadExecArgv(["--import", "tsx/esm", "--require", "tsx-like-but-not/x.cjs"])).toEqual([
      "--require",
      "tsx-like-but-not/x.cjs",
    ]);
    expect(threadExecArgv([])).toEqual([]);
  });
});
