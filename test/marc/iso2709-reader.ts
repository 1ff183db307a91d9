/**
 * An ISO 2709 reader for the tests, written apart from the writer (src/marc/iso2709.ts): it takes
 * a file's bytes and reads them as the standard lays them out, checking every length, start,
 * terminator and the base address, so a writer's miscount shows here and not only in a round trip.
 */

export type ReadField =
  | { tag: string; value: string }
  | { tag: string; ind1: string; ind2: string; subfields: { code: string; value: string }[] };

export interface ReadRecord {
  leader: string;
  fields: ReadField[];
}

// ignoreBOM: a subfield may start with U+FEFF, which is text here, not a byte-order mark.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));
const number = (bytes: Uint8Array, from: number, length: number) => {
  const text = ascii(bytes, from, length);
  if (!/^\d+$/.test(text)) throw new Error(`not a number at byte ${from}: ${JSON.stringify(text)}`);
  return Number(text);
};

export function readIso2709(file: Uint8Array): ReadRecord[] {
  const records: ReadRecord[] = [];
  for (let at = 0; at < file.length;) {
    const length = number(file, at, 5);
    const bytes = file.subarray(at, at + length);
    if (bytes.length !== length || bytes[length - 1] !== 0x1d)
      throw new Error(
        `record at byte ${at}: its length ${length} does not end at a record terminator`,
      );
    const base = number(bytes, 12, 5);
    if (bytes[base - 1] !== 0x1e || (base - 25) % 12 !== 0)
      throw new Error(`record at byte ${at}: base address ${base} does not follow the directory`);
    const fields: ReadField[] = [];
    let expectedStart = 0;
    for (let entry = 24; entry < base - 1; entry += 12) {
      const tag = ascii(bytes, entry, 3);
      const fieldLength = number(bytes, entry + 3, 4);
      const start = number(bytes, entry + 7, 5);
      if (start !== expectedStart)
        throw new Error(
          `field ${tag}: starts at ${start}, the previous field ended at ${expectedStart}`,
        );
      expectedStart = start + fieldLength;
      const field = bytes.subarray(base + start, base + start + fieldLength);
      if (field[fieldLength - 1] !== 0x1e || field.subarray(0, -1).includes(0x1e))
        throw new Error(
          `field ${tag}: its length ${fieldLength} does not end at its one field terminator`,
        );
      const content = field.subarray(0, -1);
      if (/^00[1-9]$/.test(tag)) {
        fields.push({ tag, value: decoder.decode(content) });
        continue;
      }
      if (content[2] !== 0x1f) throw new Error(`field ${tag}: no subfield after the indicators`);
      const parts = [];
      let from = 3;
      for (let i = 3; i <= content.length; i++) {
        if (i === content.length || content[i] === 0x1f) {
          parts.push(content.subarray(from, i));
          from = i + 1;
        }
      }
      fields.push({
        tag,
        ind1: ascii(content, 0, 1),
        ind2: ascii(content, 1, 1),
        subfields: parts.map((part) => ({
          code: ascii(part, 0, 1),
          value: decoder.decode(part.subarray(1)),
        })),
      });
    }
    if (base + expectedStart !== length - 1)
      throw new Error(
        `record at byte ${at}: fields end at ${base + expectedStart}, the record terminator is at ${length - 1}`,
      );
    records.push({ leader: ascii(bytes, 0, 24), fields });
    at += length;
  }
  return records;
}
