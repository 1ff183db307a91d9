import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { marcxml } from "../../src/marc/marcxml.ts";
import type { Field } from "../../src/marc/record.ts";
import { requireTool } from "../support/requires.ts";

/** MARCXML as xmllint (a system program, hence e2e) reads it; marcxml.unit.test.ts has the rest. */

const LEADER = "00000ngm a22000003i 4500";
const datafield = (tag: string, ind: string, ...pairs: [string, string][]): Field => ({
  tag,
  ind1: ind[0]!,
  ind2: ind[1]!,
  subfields: pairs.map(([code, value]) => ({ code, value })),
});

describe("MARCXML", () => {
  const xmllint = requireTool("xmllint", "the MARCXML well-formedness test");
  it.runIf(xmllint !== null)(
    "is well-formed XML for xmllint, with hostile text in it",
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "catalogue-marcxml-"));
      try {
        const file = path.join(dir, "records.xml");
        await writeFile(
          file,
          marcxml([
            {
              leader: LEADER,
              fields: [datafield("245", "00", ["a", "<&>\"'\x01\x1e\ud800 ]]> 🎬 e\u0301"])],
            },
          ]),
        );
        const { stdout } = await promisify(execFile)(xmllint!, [
          "--noout",
          "--xpath",
          "string(//*[local-name()='subfield'])",
          file,
        ]);
        expect(stdout).toBe("<&>\"' ]]> 🎬 e\u0301\n");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
