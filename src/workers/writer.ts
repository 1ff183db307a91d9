import { parentPort } from "node:worker_threads";
import type { SheetHead } from "../exports/xlsx.ts";
import { linkFiles, packResult, unpackFiles, writeBatch, type PackedFiles } from "../output/batch.ts";
import { threadError } from "./request.ts";
import { unpackRows, type PackedRows } from "./rows.ts";

/** What the main thread (src/workers/writers.ts) asks: write a batch, link unchanged files, write a spreadsheet. */
export type WriterRequest =
  | { id: number; kind: "write"; staging: string; buffer: ArrayBuffer; files: PackedFiles }
  | { id: number; kind: "link"; staging: string; previousDir: string; rels: string[] }
  | { id: number; kind: "sheet"; file: string; head: SheetHead; rows: PackedRows };

const madeDirs = new Set<string>();

async function answer(request: WriterRequest): Promise<object> {
  switch (request.kind) {
    case "write":
      return packResult(writeBatch(request.staging, new Uint8Array(request.buffer), unpackFiles(request.files), madeDirs));
    case "link":
      linkFiles(request.previousDir, request.staging, request.rels, madeDirs);
      return {};
    case "sheet": {
      // exceljs is loaded by the first spreadsheet, here rather than in the main thread.
      const { writeSheet } = await import("../exports/xlsx.ts");
      await writeSheet(request.file, { ...request.head, rows: unpackRows(request.rows) });
      return {};
    }
  }
}

parentPort!.on("message", (request: WriterRequest) => {
  // A spreadsheet is written asynchronously (zlib); batches that arrive meanwhile are written
  // between its steps.
  void answer(request).then(
    (result) => {
      // A batch's buffer goes back to the main thread to be filled again (transferred, not copied).
      if (request.kind === "write") parentPort!.postMessage({ id: request.id, result, buffer: request.buffer }, [request.buffer]);
      else parentPort!.postMessage({ id: request.id, ...result });
    },
    (error: unknown) => {
      const reply = { id: request.id, error: threadError(error) };
      if (request.kind === "write") parentPort!.postMessage({ ...reply, buffer: request.buffer }, [request.buffer]);
      else parentPort!.postMessage(reply);
    },
  );
});
