import { closeSync, openSync, writeSync } from "node:fs";
import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * A zip file written in one pass, synchronously, its entries compressed as they come (an xlsx is
 * a zip of XML parts). Every entry is dated midnight of one day, so the same parts give the same
 * bytes at any time of day.
 *
 * An entry's data may come in chunks (a large sheet), each compressed on its own and ended with a
 * sync flush: a deflate stream is a sequence of blocks, and blocks that refer only to their own
 * chunk's bytes are valid wherever they stand, so the chunks' blocks one after the other, then an
 * empty final block, are one valid stream. Memory holds one chunk, not the entry. Compression
 * restarts every chunk, which costs a little size (about 2% for the 128 KB chunks of sheet XML that src/exports/xlsx.ts compresses).
 *
 * Why not exceljs' archiver: its streams (a JavaScript CRC-32, a stream callback per 16 KB, the
 * text turned into buffers twice) made the spreadsheets a quarter of an API build's CPU.
 */
export class ZipWriter {
  private readonly fd: number;
  private position = 0;
  private readonly central: Buffer[] = [];
  private readonly stamp: Buffer;
  private open: OpenEntry | null = null;

  constructor(file: string, date: string) {
    this.stamp = dosDateTime(date);
    this.fd = openSync(file, "w");
  }

  /** Adds an entry of `data`, whole. */
  add(name: string, data: string | Buffer): void {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    const entry = this.start(name);
    entry.crc = crc32(bytes);
    entry.size = bytes.length;
    this.write(deflateRawSync(bytes, DEFLATE));
    this.end(entry);
  }

  /** Starts an entry whose data comes in chunks (`chunk`), ended by `endEntry`. */
  startEntry(name: string): void {
    this.open = this.start(name);
  }

  chunk(data: Buffer): void {
    const entry = this.open;
    if (entry === null) throw new Error("bug: a zip chunk outside an entry");
    entry.crc = crc32(data, entry.crc);
    entry.size += data.length;
    this.write(deflateRawSync(data, CHUNK_DEFLATE));
  }

  endEntry(): void {
    const entry = this.open;
    if (entry === null) throw new Error("bug: no zip entry to end");
    this.write(FINAL_BLOCK);
    this.open = null;
    this.end(entry);
  }

  /** Writes the central directory and closes the file. */
  finish(): void {
    const start = this.position;
    for (const record of this.central) this.write(record);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.central.length, 8);
    end.writeUInt16LE(this.central.length, 10);
    end.writeUInt32LE(this.position - start, 12);
    end.writeUInt32LE(start, 16);
    this.write(end);
    this.close();
  }

  /** Closes the file (after finish, or when the writing failed). */
  close(): void {
    closeSync(this.fd);
  }

  private start(name: string): OpenEntry {
    const entry: OpenEntry = { name: Buffer.from(name), offset: this.position, dataStart: 0, crc: 0, size: 0 };
    // The local header is written again with the sizes and CRC once the data is in.
    this.write(this.header(entry, 0));
    entry.dataStart = this.position;
    return entry;
  }

  private end(entry: OpenEntry): void {
    const compressed = this.position - entry.dataStart;
    if (this.position > LIMIT || entry.size > LIMIT) throw new Error(`bug: ${entry.name.toString()} is too large for a zip without zip64`);
    const local = this.header(entry, compressed);
    writeSync(this.fd, local, 0, local.length, entry.offset);
    const record = Buffer.alloc(46 + entry.name.length);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(MADE_BY, 4);
    local.copy(record, 6, 4, 30); // version needed … name and extra lengths: as in the local header
    record.writeUInt32LE(FILE_ATTRIBUTES, 38);
    record.writeUInt32LE(entry.offset, 42);
    entry.name.copy(record, 46);
    this.central.push(record);
  }

  private header(entry: OpenEntry, compressed: number): Buffer {
    const header = Buffer.alloc(30 + entry.name.length);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    header.writeUInt16LE(0, 6); // flags: sizes in the header, no data descriptor
    header.writeUInt16LE(8, 8); // deflate
    this.stamp.copy(header, 10);
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(compressed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    entry.name.copy(header, 30);
    return header;
  }

  private write(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    this.position += bytes.length;
  }
}

interface OpenEntry {
  name: Buffer;
  offset: number;
  dataStart: number;
  crc: number;
  size: number;
}

/** zlib's fastest level, as exceljs' archiver used: the XML compresses about tenfold anyway. */
const DEFLATE = { level: 1 };
const CHUNK_DEFLATE = { level: 1, finishFlush: constants.Z_SYNC_FLUSH };
/** An empty final block (fixed Huffman codes, end of block at once). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** Made by: Unix, zip 2.0; a regular file readable by all (0100644). */
const MADE_BY = (3 << 8) | 20;
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
const LIMIT = 0xffffffff;

/** The MS-DOS time and date fields of midnight of `date` (YYYY-MM-DD), as a zip header stores them. */
export function dosDateTime(date: string): Buffer {
  // MS-DOS dates count years from 1980 in 7 bits: clamp what they cannot hold.
  const day = date < "1980-01-01" ? "1980-01-01" : date > "2107-12-31" ? "2107-12-31" : date;
  const [year, month, dayOfMonth] = [Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10))];
  const bytes = Buffer.alloc(4);
  bytes.writeUInt16LE(0, 0); // time: 00:00:00
  bytes.writeUInt16LE(((year - 1980) << 9) | (month << 5) | dayOfMonth, 2);
  return bytes;
}
