import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  marcCountry,
  marcCountryTable,
  marcLanguage,
  marcLanguageCodes,
} from "../../src/marc/codes.ts";
import { requireTool } from "../support/requires.ts";

describe("MARC language codes", () => {
  it.each([
    ["es", "spa"],
    ["en", "eng"],
    ["ca", "cat"],
    ["gl", "glg"],
    ["eu", "baq"],
    ["fr", "fre"],
    ["va", "cat"],
    ["ca-valencia", "cat"],
    ["ca-ES-valencia", "cat"],
    ["es-419", "spa"],
    ["EN-gb", "eng"],
    ["pt-BR", "por"],
    ["de", "ger"],
    ["nl", "dut"],
    ["zh-Hant", "chi"],
    ["yue", "chi"],
    ["cmn", "chi"],
    ["ja", "jpn"],
    ["ar", "ara"],
    ["hy", "arm"],
    ["eus", "baq"],
    ["fra", "fre"],
    ["deu", "ger"],
    ["spa", "spa"],
    ["ast", "ast"],
    ["iw", "heb"],
    ["mo", "rum"],
    ["sgn-ES", "sgn"],
    ["ssp", "sgn"],
    ["csc", "sgn"],
    ["vsv", "sgn"],
    ["zxx", "zxx"],
    ["mul", "mul"],
    ["und", "und"],
  ])("%s is %s", (tag, code) => {
    expect(marcLanguage(tag)).toBe(code);
  });

  it.each(["x-private", "qaa", "xyz", "not a tag", "", "e"])(
    "%j has none (left out, not guessed)",
    (tag) => {
      expect(marcLanguage(tag)).toBeNull();
    },
  );
});

describe("MARC country codes", () => {
  it.each([
    ["ES", "sp"],
    ["es", "sp"],
    ["FR", "fr"],
    ["US", "xxu"],
    ["GB", "xxk"],
    ["CA", "xxc"],
    ["AU", "at"],
    ["AT", "au"],
    ["DE", "gw"],
    ["MX", "mx"],
    ["AR", "ag"],
    ["JP", "ja"],
    ["KR", "ko"],
    ["KP", "kn"],
    ["CN", "cc"],
    ["TW", "ch"],
    ["HK", "cc"],
    ["CD", "cg"],
    ["CG", "cf"],
    ["XK", "kv"],
    ["PT", "po"],
    ["IE", "ie"],
    ["MA", "mr"],
    ["CU", "cu"],
  ])("%s is %s", (iso, code) => {
    expect(marcCountry(iso)).toBe(code);
  });

  it("has a code for every ISO 3166-1 country but the places MARC codes with another or splits", () => {
    const ISO_3166 =
      `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`.split(
        " ",
      );
    expect(ISO_3166.filter((iso) => marcCountry(iso) === null)).toEqual([
      "AX",
      "GG",
      "IM",
      "JE",
      "PS",
      "SJ",
    ]);
    expect(marcCountry("XX")).toBeNull();
  });
});

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
