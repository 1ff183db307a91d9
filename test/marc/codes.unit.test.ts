import { describe, expect, it } from "vitest";
import { marcCountry, marcLanguage } from "../../src/marc/codes.ts";

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
