import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkContent } from "../../src/content/load.ts";
import type { Audiovisual } from "../../src/content/schema.ts";
import { formatProblem, sortProblems } from "../../src/errors.ts";
import { collationLocale, nameRanks } from "../../src/model/order.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const AVAILABILITY = "audiovisual_id,domain,available_from\n";

async function check(domains: string) {
  const content = await writeContent(path.join(dir, "content"), {
    domains,
    availability: AVAILABILITY,
  });
  const result = await checkContent(content);
  const shown = (problems: typeof result.problems) =>
    sortProblems(problems).map((p) => formatProblem(p).replaceAll(content, "content"));
  return {
    problems: shown(result.problems),
    warnings: shown(result.warnings),
    catalogue: result.catalogue,
  };
}

describe("a domain's locale", () => {
  it("gives the seven languages, with or without a region, their interface without a word", async () => {
    const rows = ["es-ES", "en-GB", "ca", "gl-ES", "eu", "va", "fr-FR", "ca-ES-valencia"].map(
      (locale, i) => `d${i}.example,D${i},${locale}`,
    );
    const { problems, warnings, catalogue } = await check(
      `domain,name,locale\n${rows.join("\n")}\n`,
    );
    expect(problems).toEqual([]);
    expect(warnings).toEqual([]);
    expect(catalogue!.domains.map((d) => d.locale)).toContain("va");
  });

  it("keeps any other valid tag working, with a warning naming the interfaces", async () => {
    const { problems, warnings, catalogue } = await check(
      "domain,name,locale\nuno.example,Uno,de\ndos.example,Dos,es\ntres.example,Tres,pt-BR\n",
    );
    expect(problems).toEqual([]);
    expect(catalogue).not.toBeNull();
    expect(warnings).toEqual([
      'content/domains.csv:2: locale: no interface in "de": its pages use the Spanish one (interfaces: es, en, ca, gl, eu, va, fr; a region may follow, as in "es-ES")',
      'content/domains.csv:4: locale: no interface in "pt-BR": its pages use the Spanish one (interfaces: es, en, ca, gl, eu, va, fr; a region may follow, as in "es-ES")',
    ]);
  });

  it("rejects a tag that is not one, at its line", async () => {
    const { problems, catalogue } = await check(
      "domain,name,locale\nuno.example,Uno,es\ndos.example,Dos,español\n",
    );
    expect(catalogue).toBeNull();
    expect(problems).toEqual([
      'content/domains.csv:3: locale: expected a language tag like "es" or "en-GB", got "español"',
    ]);
  });
});

describe("the name ordering of a Valencian domain", () => {
  const works = [
    "Lluna",
    "Llum",
    "Lima",
    "Ocells",
    "Àngel",
    "ángel",
    "Zebra",
    "Col·lecció",
    "Colom",
    "Ñu",
    "Nuvol",
  ].map((name, id) => ({ id, name }) as Audiovisual);
  it("is Catalan's: Intl knows no va, and would collate it as English", () => {
    expect(collationLocale("va")).toBe("ca");
    expect(collationLocale("va-ES")).toBe("ca-ES");
    expect(collationLocale("es-ES")).toBe("es-ES");
    expect(new Intl.Collator(collationLocale("va")).resolvedOptions().locale).toBe("ca");
    expect(new Intl.Collator("va").resolvedOptions().locale).not.toBe("ca");
    expect(nameRanks(works, "va").order).toEqual(nameRanks(works, "ca").order);
  });

  it("leaves the other six languages' collation as it was", () => {
    for (const locale of ["es", "en", "ca", "gl", "eu", "fr", "es-ES"]) {
      const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
      expect(nameRanks(works, locale).order, locale).toEqual(
        works.map((w) => w.name).sort(collator.compare),
      );
    }
  });
});
