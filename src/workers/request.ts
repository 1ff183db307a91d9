import { Worker, type TransferListItem, type WorkerOptions } from "node:worker_threads";

/** An error as it crosses back from a thread: what callers look at (code, path) and its stack. */
export interface ThreadError {
  message: string;
  stack?: string;
  code?: string;
  path?: string;
  name: string;
}

/** The thread's side: an error as it is posted back. */
export function threadError(error: unknown): ThreadError {
  const e = error as NodeJS.ErrnoException;
  return { message: e.message, stack: e.stack, code: e.code, path: e.path, name: e.name };
}

/** A request without the id RequestWorker gives it (each member of a union on its own). */
export type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

/**
 * A worker thread that answers requests (the writer threads): each
 * request gets an `id`, and the thread replies with that id and either its answer or `error`,
 * rethrown here as an Error with the thread's fields. If the thread fails or stops, every request
 * still waiting fails.
 */
export class RequestWorker<Request extends { id: number }, Reply extends object> {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve: (reply: Reply) => void; reject: (error: unknown) => void }
  >();
  private nextId = 0;
  /** Settles when the thread has stopped. */
  readonly exited: Promise<unknown>;

  constructor(url: URL, name: string, options?: WorkerOptions) {
    this.worker = startWorker(url, options);
    this.exited = new Promise((resolve) => this.worker.once("exit", resolve));
    const failAll = (error: unknown) => {
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
    };
    this.worker.on(
      "message",
      (reply: Reply & { id: number } & ({ error: ThreadError } | object)) => {
        const waiting = this.waiting.get(reply.id);
        this.waiting.delete(reply.id);
        if ("error" in reply)
          waiting?.reject(Object.assign(new Error(reply.error.message), reply.error));
        else waiting?.resolve(reply);
      },
    );
    this.worker.on("error", failAll);
    this.worker.on("exit", (code) => failAll(new Error(`${name} stopped (exit code ${code})`)));
  }

  /** Requests waiting for their reply. */
  get pending(): number {
    return this.waiting.size;
  }

  request(message: WithoutId<Request>, transfer: TransferListItem[] = []): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** Posts a message that gets no reply (a request to stop). */
  post(message: object): void {
    this.worker.postMessage(message);
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/**
 * Starts a thread with the options given, without the Node options a thread refuses: V8's (which
 * hold for every thread of the process anyway, e.g. `--max-semi-space-size` or `--trace-gc` in
 * NODE_OPTIONS) and those of the process as a whole. A thread given them would not start.
 */
function startWorker(url: URL, options?: WorkerOptions): Worker {
  try {
    return new Worker(url, options);
  } catch (error) {
    const refused = /invalid execArgv flags: (.*)$/
      .exec((error as Error).message)?.[1]
      ?.split(", ");
    if (
      (error as NodeJS.ErrnoException).code !== "ERR_WORKER_INVALID_EXEC_ARGV" ||
      refused === undefined ||
      options?.execArgv === undefined
    )
      throw error;
    return new Worker(url, {
      ...options,
      execArgv: options.execArgv.filter((arg) => !refused.includes(arg)),
    });
  }
}
