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
 * restarts every chunk, which costs a little size for the 128 KB chunks of sheet XML that
 * src/exports/xlsx.ts compresses.
 *
 * Entries may also be stored as they are (`store`: files already compressed, in an archive of a
 * build), and the zip64 records are added when an archive needs them (more than 65,535 entries,
 * or entries past 4 GB): a build of tens of thousands of works has more files than a plain zip
 * can list.
 *
 * Why not exceljs' archiver (or the archiver package, which the offline archives used): its streams
 * (a JavaScript CRC-32, a stream callback per 16 KB, the text turned into buffers twice) made the
 * spreadsheets a large part of an API build's CPU.
 */
export class ZipWriter {
  private readonly fd: number;
  private position = 0;
  private readonly central: Buffer[] = [];
  private readonly stamp: Buffer;
  private open: OpenEntry | null = null;
  private closed = false;

  private readonly deflate: { level: number };
  private readonly chunkDeflate: { level: number; finishFlush: number };

  /** `level`: zlib's compression level (1, its fastest, unless told: the XML of a sheet compresses about tenfold anyway). */
  constructor(file: string, date: string, { level = 1 }: { level?: number } = {}) {
    this.stamp = dosDateTime(date);
    this.deflate = { level };
    this.chunkDeflate = { level, finishFlush: constants.Z_SYNC_FLUSH };
    this.fd = openSync(file, "w");
  }

  /** Adds an entry of `data`, whole; stored as it is with `store`. */
  add(name: string, data: string | Uint8Array, { store = false } = {}): void {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    const entry = this.start(name, store);
    entry.crc = crc32(bytes);
    entry.size = bytes.length;
    this.write(store ? bytes : deflateRawSync(bytes, this.deflate));
    this.end(entry);
  }

  /** Starts an entry whose data comes in chunks (`chunk`), ended by `endEntry`; stored as it is with `store`. */
  startEntry(name: string, { store = false } = {}): void {
    this.open = this.start(name, store);
  }

  chunk(data: Uint8Array): void {
    const entry = this.open;
    if (entry === null) throw new Error("bug: a zip chunk outside an entry");
    entry.crc = crc32(data, entry.crc);
    entry.size += data.length;
    this.write(entry.store ? data : deflateRawSync(data, this.chunkDeflate));
  }

  endEntry(): void {
    const entry = this.open;
    if (entry === null) throw new Error("bug: no zip entry to end");
    if (!entry.store) this.write(FINAL_BLOCK);
    this.open = null;
    this.end(entry);
  }

  /** Writes the central directory and closes the file. */
  finish(): void {
    const start = this.position;
    for (const record of this.central) this.write(record);
    const count = this.central.length;
    const size = this.position - start;
    // Past what the plain end record holds: the zip64 end record and its locator first, and the
    // plain record's fields at their maximum, which tells readers to look there.
    const zip64 = count >= 0xffff || start >= LIMIT || size >= LIMIT;
    if (zip64) {
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4); // the record's size after this field
      record.writeUInt16LE(MADE_BY_ZIP64, 12);
      record.writeUInt16LE(ZIP64_VERSION, 14);
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(this.position), 8);
      locator.writeUInt32LE(1, 16); // disks
      this.write(record);
      this.write(locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(Math.min(size, LIMIT), 12);
    end.writeUInt32LE(Math.min(start, LIMIT), 16);
    this.write(end);
    this.close();
  }

  /** Closes the file (after finish, or when the writing failed); once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private start(name: string, store: boolean): OpenEntry {
    const entry: OpenEntry = {
      name: Buffer.from(name),
      ascii: !NOT_ASCII.test(name),
      store,
      offset: this.position,
      dataStart: 0,
      crc: 0,
      size: 0,
    };
    // The local header is written again with the sizes and CRC once the data is in.
    this.write(this.header(entry, 0));
    entry.dataStart = this.position;
    return entry;
  }

  private end(entry: OpenEntry): void {
    const compressed = this.position - entry.dataStart;
    // One file of more than 4 GB would need zip64 sizes in its local header too: none of a build's is.
    if (compressed > LIMIT || entry.size > LIMIT)
      throw new Error(`${entry.name.toString()} is larger than 4 GB: too large for a zip archive`);
    const local = this.header(entry, compressed);
    writeSync(this.fd, local, 0, local.length, entry.offset);
    // An entry that starts past 4 GB has its offset in a zip64 extra field.
    const far = entry.offset >= LIMIT;
    const record = Buffer.alloc(46 + entry.name.length + (far ? 12 : 0));
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(far ? MADE_BY_ZIP64 : MADE_BY, 4);
    local.copy(record, 6, 4, 30); // version needed … name and extra lengths: as in the local header
    if (far) {
      record.writeUInt16LE(ZIP64_VERSION, 6);
      record.writeUInt16LE(12, 30); // extra field length
    }
    record.writeUInt32LE(FILE_ATTRIBUTES, 38);
    record.writeUInt32LE(far ? LIMIT : entry.offset, 42);
    entry.name.copy(record, 46);
    if (far) {
      const extra = 46 + entry.name.length;
      record.writeUInt16LE(0x0001, extra); // zip64 extended information
      record.writeUInt16LE(8, extra + 2);
      record.writeBigUInt64LE(BigInt(entry.offset), extra + 4);
    }
    this.central.push(record);
  }

  private header(entry: OpenEntry, compressed: number): Buffer {
    const header = Buffer.alloc(30 + entry.name.length);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    // Flags: sizes in the header (no data descriptor); a name that is not ASCII is marked as UTF-8.
    header.writeUInt16LE(entry.ascii ? 0 : UTF8_NAME, 6);
    header.writeUInt16LE(entry.store ? 0 : 8, 8); // stored or deflated
    this.stamp.copy(header, 10);
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(compressed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    entry.name.copy(header, 30);
    return header;
  }

  private write(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length;)
      done += writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    this.position += bytes.length;
  }
}

interface OpenEntry {
  name: Buffer;
  ascii: boolean;
  store: boolean;
  offset: number;
  dataStart: number;
  crc: number;
  size: number;
}

/** An empty final block (fixed Huffman codes, end of block at once). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** Made by: Unix, zip 2.0; a regular file readable by all (0100644). */
const MADE_BY = (3 << 8) | 20;
/** Made by and version needed for zip64 records: zip 4.5. */
const ZIP64_VERSION = 45;
const MADE_BY_ZIP64 = (3 << 8) | ZIP64_VERSION;
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
const LIMIT = 0xffffffff;
const UTF8_NAME = 0x0800;
// eslint-disable-next-line no-control-regex -- a name beyond ASCII needs the UTF-8 flag
const NOT_ASCII = /[^\x00-\x7f]/;

/** The MS-DOS time and date fields of midnight of `date` (YYYY-MM-DD), as a zip header stores them. */
export function dosDateTime(date: string): Buffer {
  // MS-DOS dates count years from 1980 in 7 bits: clamp what they cannot hold.
  const day = date < "1980-01-01" ? "1980-01-01" : date > "2107-12-31" ? "2107-12-31" : date;
  const [year, month, dayOfMonth] = [
    Number(day.slice(0, 4)),
    Number(day.slice(5, 7)),
    Number(day.slice(8, 10)),
  ];
  const bytes = Buffer.alloc(4);
  bytes.writeUInt16LE(0, 0); // time: 00:00:00
  bytes.writeUInt16LE(((year - 1980) << 9) | (month << 5) | dayOfMonth, 2);
  return bytes;
}
