import { parentPort, workerData } from "node:worker_threads";
import type { Catalogue } from "../content/load.ts";
import { writeDomainFiles } from "../domain-files.ts";
import type { ProcessedImage } from "../media/images.ts";
import { domainView } from "../model/listing.ts";
import { StagingWriter, type FileEntry } from "../output/staging.ts";

/** What the main thread sends to build one domain in a worker (see src/workers/pool.ts). */
export interface DomainTask {
  catalogue: Catalogue;
  domain: string;
  date: string;
  images: Map<string, ProcessedImage>;
  staging: string;
  previous: Map<string, FileEntry>;
}

const task = workerData as DomainTask;
try {
  const domain = task.catalogue.domains.find((d) => d.domain === task.domain)!;
  const writer = new StagingWriter(task.staging, task.previous);
  await writeDomainFiles(writer, domainView(task.catalogue, domain, task.date), task.images);
  parentPort!.postMessage({ entries: [...writer.entries], bytesWritten: writer.bytesWritten });
} catch (error) {
  const e = error as NodeJS.ErrnoException;
  parentPort!.postMessage({ error: { message: e.message, stack: e.stack, code: e.code, path: e.path, name: e.name } });
}
