import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  detectDelimiter,
  parseCsv,
  splitRecords,
  splitRecordsWithCsvParse,
} from "../../src/content/csv.ts";
import { formatProblem } from "../../src/errors.ts";

const columns = { required: ["id", "name"], optional: ["note"] };

/** Each row as "LINE: cells", and the formatted problems, of one CSV text. */
function read(text: string) {
  const table = parseCsv(text, "f.csv", columns);
  return {
    rows: table.rows.map((row) => `${row.line}: ${JSON.stringify(row.cells)}`),
    problems: table.problems.map(formatProblem),
  };
}

describe("CSV records and the line they start on", () => {
  it("counts the lines of quoted fields that span lines, CRLF and CR line ends, blank lines and a BOM", () => {
    const text =
      '\uFEFFid,name,note\r\n\r\n1,"a\r\nb\r\n",x\r\n\r\n  \r\n2,b,"""q""\rr"\r3,c\n\n\n4,"",\n';
    expect(read(text)).toEqual({
      rows: [
        '3: {"id":"1","name":"a\\nb","note":"x"}',
        '7: {"id":null,"name":null,"note":null}',
        '8: {"id":"2","name":"b","note":"\\"q\\"\\nr"}',
        '10: {"id":"3","name":"c","note":null}',
        '13: {"id":"4","name":null,"note":null}',
      ],
      problems: [],
    });
  });

  it("keeps a last record without a final line end, and a line holding only an empty quoted field", () => {
    expect(read('id,name\n""\n\n5,"x\ny"')).toEqual({
      rows: ['2: {"id":null,"name":null,"note":null}', '4: {"id":"5","name":"x\\ny","note":null}'],
      problems: [],
    });
  });

  it("counts lines before the header and inside a header cell, and reports extra fields where their record starts", () => {
    expect(read('\n\nid,"na\nme",name\n1,a,b\n2,"x\ny",c,d\n')).toEqual({
      rows: ['5: {"id":"1","name":"b","note":null}', '6: {"id":"2","name":"c","note":null}'],
      problems: ["f.csv:6: 4 fields but the header has 3: quote cells that contain commas"],
    });
  });

  it("reads through csv-parse what the fast path leaves to it, at the same lines", () => {
    // A NUL right after a closing quote: csv-parse accepts it as part of the cell.
    expect(read('id,name\n\n1,"a\nb"\0\n2,d\n')).toEqual({
      rows: [
        '3: {"id":"1","name":"a\\nb\\u0000","note":null}',
        '5: {"id":"2","name":"d","note":null}',
      ],
      problems: [],
    });
  });

  it("reports csv-parse's problems at their lines", () => {
    expect(read('id,name\n1,a"b\n').problems).toEqual([
      "f.csv:2: malformed CSV: Invalid Opening Quote: a quote is found on field 1",
    ]);
    expect(read('id,name\n1,"a"b\n').problems).toEqual([
      'f.csv:2: malformed CSV: Invalid Closing Quote: got "b"',
    ]);
    expect(read('id,name\n1,"a\nb\n\n').problems).toEqual([
      "f.csv:2: a quoted field is never closed: add the closing double quote",
    ]);
    expect(read('id,name\n\n\n1,"a""').problems).toEqual([
      "f.csv:4: a quoted field is never closed: add the closing double quote",
    ]);
  });

  it("splits every text it accepts exactly as csv-parse does", () => {
    const text = fc.string({
      unit: fc.constantFrom('"', '""', ",", "\n", " ", "a", "é", "😀", "\0", "\u2028"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, (source) => {
        // false sends the text to csv-parse itself, so only accepted texts need comparing.
        const fast: unknown[] = [];
        const reference: unknown[] = [];
        if (splitRecords(source, (fields, line) => fast.push([line, ...fields]))) {
          expect(
            splitRecordsWithCsvParse(source, "f.csv", (fields, line) =>
              reference.push([line, ...fields]),
            ),
          ).toBeUndefined();
          expect(fast).toEqual(reference);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("splits every text it accepts exactly as csv-parse does, with semicolons and tabs as separators", () => {
    for (const delimiter of [";", "\t"] as const) {
      const text = fc.string({
        unit: fc.constantFrom('"', '""', delimiter, ",", "\n", " ", "a", "é"),
        maxLength: 40,
      });
      fc.assert(
        fc.property(text, (source) => {
          const fast: unknown[] = [];
          const reference: unknown[] = [];
          if (splitRecords(source, (fields, line) => fast.push([line, ...fields]), delimiter)) {
            expect(
              splitRecordsWithCsvParse(
                source,
                "f.csv",
                (fields, line) => reference.push([line, ...fields]),
                delimiter,
              ),
            ).toBeUndefined();
            expect(fast).toEqual(reference);
          }
        }),
        { numRuns: 2_000 },
      );
    }
  });
});

describe("the separator", () => {
  it("is read off the header line: semicolons or tabs where they outnumber commas, the same rules otherwise", () => {
    expect(detectDelimiter("\n\nid;name;note\n1,5;x;y\n")).toBe(";");
    expect(detectDelimiter("id\tname\n")).toBe("\t");
    expect(detectDelimiter("id,name;x\n")).toBe(",");
    expect(detectDelimiter("")).toBe(",");
    expect(read('\uFEFFid;name;note\r\n1;"a; b, ""c""";\r\n2;"x\r\ny";z\r\n3;a;b;c\r\n')).toEqual({
      rows: [
        '2: {"id":"1","name":"a; b, \\"c\\"","note":null}',
        '3: {"id":"2","name":"x\\ny","note":"z"}',
        '5: {"id":"3","name":"a","note":"b"}',
      ],
      problems: ["f.csv:5: 4 fields but the header has 3: quote cells that contain semicolons"],
    });
    expect(read("id\tname\n1\tUno, dos\n").rows).toEqual([
      '2: {"id":"1","name":"Uno, dos","note":null}',
    ]);
  });

  it("counts only separators outside quotes, and says why a file was read with another than the comma when that goes wrong", () => {
    // More semicolons than commas, all inside a quoted name: a comma file.
    expect(detectDelimiter('id,name,"a; b; c; d"\n')).toBe(",");
    expect(detectDelimiter('id;name;"a, b, c, d"\n')).toBe(";");
    // A quoted name with a line break in it is part of the header.
    expect(detectDelimiter('id,"na\nme;;;",x\n')).toBe(",");
    expect(read('id,name,"n;o;t;e"\n1,"a ""b"" c; d",x\n').problems).toEqual([]);
    // The header's semicolons outnumber its commas outside quotes; the rows are comma-separated.
    expect(read('id;name;x,note\n1,"a ""b""",c\n').problems).toEqual([
      "f.csv:2: malformed CSV: Invalid Opening Quote: a quote is found on field 0 (read as ;-separated because its header has more ; than , outside quotes: 2 against 1)",
    ]);
    expect(read("id;name;x,note\n1;a;b;c;d\n").problems).toEqual([
      "f.csv:2: 5 fields but the header has 3: quote cells that contain semicolons (read as ;-separated because its header has more ; than , outside quotes: 2 against 1)",
    ]);
  });
});
