import { describe, expect, it } from "vitest";
import { writeMarcFiles } from "../../src/marc/record-files.ts";
import { iso2709Chunks } from "../../src/marc/iso2709.ts";
import { marcRecords } from "../../src/marc/map.ts";
import { marcxml } from "../../src/marc/marcxml.ts";
import { readIso2709 } from "./iso2709-reader.ts";
import { DOMAIN, SHAPES, generatedWorks } from "./works.ts";

describe("writeMarcFiles", () => {
  const works = [...Object.values(SHAPES), ...generatedWorks(300)];

  it("writes both files in one pass, each as its own writer does, records made once", () => {
    const iso: Uint8Array[] = [];
    const xml: Uint8Array[] = [];
    let made = 0;
    const records = (function* () {
      for (const record of marcRecords(works, DOMAIN)) {
        made++;
        yield record;
      }
    })();
    const count = writeMarcFiles(
      records,
      { iso2709: (chunk) => iso.push(chunk), marcxml: (chunk) => xml.push(chunk) },
      16 * 1024,
    );
    expect(count).toBe(works.length);
    expect(made).toBe(works.length);
    expect(iso.length).toBeGreaterThan(5);
    expect(xml.length).toBeGreaterThan(5);
    expect(
      Buffer.concat(iso).equals(Buffer.concat([...iso2709Chunks(marcRecords(works, DOMAIN))])),
    ).toBe(true);
    expect(Buffer.concat(xml).toString("utf8")).toBe(marcxml(marcRecords(works, DOMAIN)));
    expect(readIso2709(Buffer.concat(iso))).toHaveLength(works.length);
  });

  it("writes an empty collection and no ISO 2709 bytes for no records", () => {
    const iso: Uint8Array[] = [];
    const xml: Uint8Array[] = [];
    expect(
      writeMarcFiles([], {
        iso2709: (chunk) => iso.push(chunk),
        marcxml: (chunk) => xml.push(chunk),
      }),
    ).toBe(0);
    expect(iso).toEqual([]);
    expect(Buffer.concat(xml).toString("utf8")).toBe(marcxml([]));
  });
});
