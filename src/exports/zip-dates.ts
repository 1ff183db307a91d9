import { open, type FileHandle } from "node:fs/promises";

/**
 * Sets the modification time of every entry of a zip file to midnight of `date`, in place.
 *
 * archiver stamps each entry with the wall-clock time it was added, in two places: the entry's
 * local header and its central directory record. exceljs gives no way to choose that time, so
 * the same sheet written twice would differ in those bytes, and an unchanged export would be
 * rewritten and re-uploaded on every build. Patching the two fields afterwards touches a few
 * bytes per entry (an xlsx has about ten), whatever the file's size.
 */

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
/** A zip comment is at most 65,535 bytes, so the end record is within this many bytes of the end. */
const EOCD_SEARCH = EOCD_SIZE + 0xffff;

/** The MS-DOS date and time fields (local header offset 10, central record offset 12) of `date` at 00:00:00. */
export function dosDateTime(date: string): Buffer {
  // MS-DOS dates count years from 1980 in 7 bits: clamp what they cannot hold.
  const day = date < "1980-01-01" ? "1980-01-01" : date > "2107-12-31" ? "2107-12-31" : date;
  const [year, month, dayOfMonth] = [Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10))];
  const bytes = Buffer.alloc(4);
  bytes.writeUInt16LE(0, 0); // time: 00:00:00
  bytes.writeUInt16LE(((year - 1980) << 9) | (month << 5) | dayOfMonth, 2);
  return bytes;
}

export async function pinZipDates(file: string, date: string): Promise<void> {
  const stamp = dosDateTime(date);
  const handle = await open(file, "r+");
  try {
    const { size } = await handle.stat();
    const { offset, length, entries } = await centralDirectory(handle, size, file);
    const central = await read(handle, offset, length);
    let at = 0;
    for (let entry = 0; entry < entries; entry++) {
      if (central.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw corrupt(file, `central record ${entry}`);
      const localOffset = central.readUInt32LE(at + 42);
      if (localOffset === 0xffffffff) throw corrupt(file, "zip64 entries are not expected in a spreadsheet");
      stamp.copy(central, at + 12);
      const local = await read(handle, localOffset, 4);
      if (local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw corrupt(file, `local header of entry ${entry}`);
      await handle.write(stamp, 0, stamp.length, localOffset + 10);
      at += 46 + central.readUInt16LE(at + 28) + central.readUInt16LE(at + 30) + central.readUInt16LE(at + 32);
    }
    await handle.write(central, 0, central.length, offset);
  } finally {
    await handle.close();
  }
}

async function centralDirectory(handle: FileHandle, size: number, file: string) {
  const tailLength = Math.min(size, EOCD_SEARCH);
  const tail = await read(handle, size - tailLength, tailLength);
  for (let at = tailLength - EOCD_SIZE; at >= 0; at--) {
    if (tail.readUInt32LE(at) !== EOCD_SIGNATURE) continue;
    const entries = tail.readUInt16LE(at + 10);
    const length = tail.readUInt32LE(at + 12);
    const offset = tail.readUInt32LE(at + 16);
    if (offset + length > size) throw corrupt(file, "central directory out of bounds");
    return { offset, length, entries };
  }
  throw corrupt(file, "no end of central directory record");
}

async function read(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new Error(`bug: short read at ${position} of a zip file`);
  return buffer;
}

// The zip was written by this process a moment ago: a malformed one is a bug, not a user error.
const corrupt = (file: string, what: string) => new Error(`bug: ${file} is not the zip archiver writes: ${what}`);
