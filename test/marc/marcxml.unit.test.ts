import fc from "fast-check";
import { parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { iso2709Leader } from "../../src/marc/iso2709.ts";
import {
  MARCXML_NAMESPACE,
  marcxml,
  marcxmlChunks,
  marcxmlRecord,
} from "../../src/marc/marcxml.ts";
import type { Field, MarcRecord } from "../../src/marc/record.ts";

const LEADER = "00000ngm a22000003i 4500";
const datafield = (tag: string, ind: string, ...pairs: [string, string][]): Field => ({
  tag,
  ind1: ind[0]!,
  ind2: ind[1]!,
  subfields: pairs.map(([code, value]) => ({ code, value })),
});

interface Element {
  type: string;
  name: string;
  attribs: Record<string, string>;
  children: (Element | { data: string })[];
}
const elements = (node: Element) =>
  node.children.filter((child): child is Element => "type" in child && child.type === "tag");
const textOf = (node: Element) =>
  node.children.map((child) => ("data" in child ? child.data : "")).join("");

/** The records of a MARCXML text as an XML parser reads them, in the shape of MarcRecord. */
function parse(xml: string): { namespace: string; records: MarcRecord[] } {
  const document = parseDocument(xml, {
    xmlMode: true,
    decodeEntities: true,
  }) as unknown as Element;
  const [collection] = elements(document);
  const records = elements(collection!).map((record) => {
    const [leader, ...fields] = elements(record);
    return {
      leader: textOf(leader!),
      fields: fields.map((field): Field =>
        field.name === "controlfield"
          ? { tag: field.attribs.tag!, value: textOf(field) }
          : {
              tag: field.attribs.tag!,
              ind1: field.attribs.ind1!,
              ind2: field.attribs.ind2!,
              subfields: elements(field).map((s) => ({ code: s.attribs.code!, value: textOf(s) })),
            },
      ),
    };
  });
  return { namespace: collection!.attribs.xmlns!, records };
}

describe("MARCXML", () => {
  it("writes a collection of records in the MARC 21 slim namespace, with the ISO 2709 leader", () => {
    const record = {
      leader: LEADER,
      fields: [{ tag: "001", value: "catav1" }, datafield("245", "00", ["a", "Né."])],
    };
    expect(marcxml([record])).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<collection xmlns="http://www.loc.gov/MARC21/slim">',
        "<record>",
        `  <leader>${iso2709Leader(record)}</leader>`,
        '  <controlfield tag="001">catav1</controlfield>',
        '  <datafield tag="245" ind1="0" ind2="0">',
        '    <subfield code="a">Né.</subfield>',
        "  </datafield>",
        "</record>",
        "</collection>",
        "",
      ].join("\n"),
    );
    expect(MARCXML_NAMESPACE).toBe("http://www.loc.gov/MARC21/slim");
    expect(marcxml([])).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="${MARCXML_NAMESPACE}">\n</collection>\n`,
    );
  });

  it("escapes markup, keeps a carriage return, drops what XML cannot hold", () => {
    const record = {
      leader: LEADER,
      fields: [
        datafield("520", "  ", ["a", `<b>"Tom & Jerry"</b> ]]> a\rb\x00\x1f\x0bc\uffff\udc00d`]),
      ],
    };
    const xml = marcxmlRecord(record);
    expect(xml).toContain(
      "&lt;b&gt;&quot;Tom &amp; Jerry&quot;&lt;/b&gt; ]]&gt; a&#13;bcd</subfield>",
    );
    expect(parse(marcxml([record])).records[0]!.fields).toEqual([
      datafield("520", "  ", ["a", `<b>"Tom & Jerry"</b> ]]> a\rbcd`]),
    ]);
  });

  it("checks tags, indicators and codes before they go into attributes, also with a leader given", () => {
    expect(() =>
      marcxmlRecord({ leader: LEADER, fields: [datafield('2"5', "00", ["a", "x"])] }, LEADER),
    ).toThrow(/tag/);
    expect(() =>
      marcxmlRecord({ leader: LEADER, fields: [datafield("245", "<0", ["a", "x"])] }),
    ).toThrow(/indicators/);
  });

  it("writes in chunks that make the same text as the whole", () => {
    const records = Array.from({ length: 500 }, (_, i) => ({
      leader: LEADER,
      fields: [
        { tag: "001", value: `catav${i}` },
        datafield("245", "00", ["a", `Título ${"𝕸".repeat(i)} & <${i}>`]),
      ],
    }));
    const chunks = [...marcxmlChunks(records, 8192)];
    expect(chunks.length).toBeGreaterThan(10);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(marcxml(records));
    expect(Buffer.concat([...marcxmlChunks([])]).toString("utf8")).toBe(marcxml([]));
  });

  it("reads back as written for any text (property)", () => {
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.string({ unit: anyUnit, maxLength: 30 }),
      fc.constantFrom("&amp;", "<![CDATA[x]]>", "\r\n", " lead and trail "),
    );
    const field = fc.record({
      tag: fc.constantFrom("245", "520", "700"),
      ind1: fc.constantFrom(" ", "1"),
      ind2: fc.constantFrom(" ", "0"),
      subfields: fc.array(fc.record({ code: fc.constantFrom("a", "b", "4"), value: text }), {
        minLength: 1,
        maxLength: 4,
      }),
    });
    // XML's characters, without the noncharacters.
    const xmlAllows = (value: string) =>
      Array.from(value)
        .filter(
          (c) =>
            /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]$/u.test(c) &&
            !/^[\ufdd0-\ufdef]$/u.test(c) &&
            (c.codePointAt(0)! & 0xfffe) !== 0xfffe,
        )
        .join("");
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 6 }), (fields) => {
        const record: MarcRecord = { leader: LEADER, fields };
        const { namespace, records } = parse(marcxml([record]));
        expect(namespace).toBe(MARCXML_NAMESPACE);
        expect(records[0]!.fields).toEqual(
          fields.map((f) => ({
            ...f,
            subfields: f.subfields.map((s) => ({ code: s.code, value: xmlAllows(s.value) })),
          })),
        );
      }),
      { numRuns: 200 },
    );
  });
});
