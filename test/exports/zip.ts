import { readFile } from "node:fs/promises";
import { inflateRawSync } from "node:zlib";

/**
 * A minimal zip reader for the tests: the entries of a file with their stored MS-DOS dates (from
 * both the local header and the central directory) and their inflated bytes. Written from the
 * zip specification, independently of the code under test, so it can check that code.
 */
export interface ZipEntry {
  name: string;
  /** YYYY-MM-DD hh:mm:ss as stored in the central directory record. */
  centralDate: string;
  /** The same, as stored in the local header. */
  localDate: string;
  data: Buffer;
}

const pad = (n: number) => String(n).padStart(2, "0");
export function dosDate(bytes: Buffer, at: number): string {
  const time = bytes.readUInt16LE(at);
  const date = bytes.readUInt16LE(at + 2);
  return `${1980 + (date >> 9)}-${pad((date >> 5) & 15)}-${pad(date & 31)} ${pad(time >> 11)}:${pad((time >> 5) & 63)}:${pad((time & 31) * 2)}`;
}

export async function readZip(file: string): Promise<ZipEntry[]> {
  const zip = await readFile(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file}: no end of central directory`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central record ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    if (zip.readUInt32LE(local) !== 0x04034b50)
      throw new Error(`${file}: bad local header of ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    entries.push({
      name,
      centralDate: dosDate(zip, at + 12),
      localDate: dosDate(zip, local + 10),
      data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

export async function zipText(file: string, name: string): Promise<string> {
  const entry = (await readZip(file)).find((e) => e.name === name);
  if (entry === undefined) throw new Error(`${file} has no ${name}`);
  return entry.data.toString("utf8");
}
