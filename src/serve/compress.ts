import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { ServedFile } from "./served-file.ts";

/** On-the-fly compression of text responses; the bytes of small files are kept, compressed or not. */

export type Encoding = "br" | "gzip";

/** The best encoding the client accepts (`Accept-Encoding`, q-values honoured), or null. */
export function pickEncoding(header: string | undefined): Encoding | null {
  if (header === undefined) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    accepted.set(name!.trim(), q ? Number(q[1]) : 1);
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Quality 5 compresses JSON pages well and quickly; the results are cached anyway.
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };

/** File bytes (raw or compressed) by path, ETag and encoding, evicting the oldest beyond a memory budget. */
export class CompressCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly budget = 64 * 1024 * 1024) {}

  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Buffer) {
    this.entries.set(key, value);
    this.bytes += value.length;
    for (const [old, buffer] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(old);
      this.bytes -= buffer.length;
    }
  }
}

export async function compressed(
  cache: CompressCache,
  file: ServedFile,
  encoding: Encoding,
): Promise<Buffer> {
  const key = `${file.rel}\0${file.etag}\0${encoding}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const raw = await readFile(file.real);
  const body = encoding === "br" ? await brotli(raw, BROTLI) : await gzip(raw);
  cache.set(key, body);
  return body;
}

export async function cachedBytes(cache: CompressCache, file: ServedFile): Promise<Buffer> {
  const key = `${file.rel}\0${file.etag}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const raw = await readFile(file.real);
  cache.set(key, raw);
  return raw;
}

export const compressStream = (encoding: Encoding) =>
  encoding === "br" ? zlib.createBrotliCompress(BROTLI) : zlib.createGzip();
