import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { marcCountryTable, marcLanguageCodes } from "../../src/marc/codes.ts";
import { requireTool } from "../support/requires.ts";

/** The code tables of src/marc/codes.ts against Perl's MARC::Lint (a system program, hence e2e). */

const perlCodes =
  requireTool("marclint", "the checks of the MARC code tables against MARC::Lint's code lists") !==
  null;
describe.runIf(perlCodes)(
  "the code tables, against MARC::Lint's copy of the Library of Congress's lists",
  () => {
    /**
     * The codes among `codes` that MARC::Lint::CodeData does not hold as current codes of `list`
     * (Language or Country), or, with `obsolete`, also lists as obsolete. (Country codes are
     * reused: `ai`, once Anguilla, is Armenia now, and stands in both lists.)
     */
    async function notCurrent(
      list: "Language" | "Country",
      codes: string[],
      obsolete = true,
    ): Promise<string[]> {
      const old = obsolete ? ` || $MARC::Lint::CodeData::Obsolete${list}Codes{$_}` : "";
      const script = `use MARC::Lint::CodeData; print join("\\n", grep { !$MARC::Lint::CodeData::${list}Codes{$_}${old} } @ARGV);`;
      const { stdout } = await promisify(execFile)("perl", ["-e", script, ...codes]);
      return stdout.split("\n").filter(Boolean);
    }

    it("gives only current MARC language codes", async () => {
      const codes = marcLanguageCodes();
      expect(codes.length).toBeGreaterThan(480);
      expect(await notCurrent("Language", codes)).toEqual([]);
    });

    it("gives only current MARC country codes", async () => {
      const codes = marcCountryTable().map(([, code]) => code);
      expect(codes.length).toBeGreaterThan(240);
      // MARC::Lint keeps country codes padded to three characters.
      expect(
        await notCurrent(
          "Country",
          codes.map((code) => code.padEnd(3, " ")),
          false,
        ),
      ).toEqual([]);
    });
  },
);
