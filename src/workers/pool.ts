import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { UserError } from "../errors.ts";
import type { StagedEntry } from "../output/staging.ts";
import { mapLimit } from "../util/concurrency.ts";
import type { DomainTask } from "./domain.ts";

export interface DomainResult {
  entries: [string, StagedEntry][];
  bytesWritten: number;
}

/**
 * Builds domains in worker threads, as many at once as there are cores: serialising and writing
 * a domain's files is CPU work that one thread would do domain after domain.
 */
export async function buildDomainsInWorkers(tasks: DomainTask[], onDone: (domain: string) => void): Promise<DomainResult[]> {
  return mapLimit(tasks, Math.max(1, availableParallelism()), (task) => runWorker(task).then((result) => (onDone(task.domain), result)));
}

function runWorker(task: DomainTask): Promise<DomainResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./domain.mjs", import.meta.url), { workerData: task });
    let settled = false;
    worker.once("message", (message: DomainResult | { error: { message: string; stack?: string; code?: string; path?: string; name: string } }) => {
      settled = true;
      if ("error" in message) {
        // The worker's error, rebuilt with what callers look at (code, path) and its stack.
        // A UserError (a target that cannot be written) stays one: exit 1 with its message, not a bug.
        const error = Object.assign(message.error.name === "UserError" ? new UserError(message.error.message) : new Error(message.error.message), message.error);
        reject(error);
      } else resolve(message);
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the worker building ${task.domain} stopped (exit code ${code})`));
    });
  });
}
