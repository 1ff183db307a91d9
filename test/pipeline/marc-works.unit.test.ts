import { describe, expect, it } from "vitest";
import type { Audiovisual, Domain } from "../../src/content/schema.ts";
import { marcRecord } from "../../src/marc/map.ts";
import type { MarcRecord } from "../../src/marc/record.ts";
import { domainView, type ListedWork } from "../../src/model/domain-view.ts";
import { domainInputs } from "../../src/pipeline/domain-inputs.ts";
import { marcKey } from "../../src/pipeline/marc-files.ts";
import { marcDomain, marcWork } from "../../src/pipeline/marc-works.ts";
import { stringsFor } from "../../src/web/i18n.ts";
import { catalogueOf, director, DOMAIN, work } from "../helpers/model.ts";

/**
 * The catalogue's model as records: what each column of the CSV files becomes in the record a
 * domain writes (docs/exports.md#marc-21-records), checked on the record's fields, with works
 * that carry what the browsing columns give (`browse`).
 */

const DATE = "2026-11-20";

/** A record's fields as lines: `245 00 $a Title.`, `001 catav1`. */
function lines(record: MarcRecord, tag?: string): string[] {
  return record.fields
    .filter((field) => tag === undefined || field.tag === tag)
    .map((field) =>
      "value" in field
        ? `${field.tag} ${field.value}`
        : `${field.tag} ${field.ind1}${field.ind2} ${field.subfields.map((s) => `$${s.code} ${s.value}`).join(" ")}`,
    );
}

const CATALAN: Domain = {
  ...DOMAIN,
  domain: "cat.example",
  locale: "ca",
  marc_org_code: "SpBaBC",
  marc_genre_source: "lemac",
  watch_url: "https://prestec.example/obra/{id}?s={slug}",
};

/** The record one domain writes for `subject` (listed since 2026-10-02). */
function recordOf(subject: Audiovisual, domain: Domain, directors = [director(1)]) {
  const catalogue = catalogueOf([subject], {
    domain,
    directors,
    windows: new Map([[subject.id, { from: "2026-10-02", until: null }]]),
  });
  const view = domainView(catalogue, domain, DATE);
  const listed = view.orders.name[0]!;
  const categories = stringsFor(domain.locale).categories;
  return marcRecord(marcWork(listed, domain, categories), marcDomain(domain, DATE));
}

const FULL = work(5, {
  name: "L’Atalante",
  slug: "l-atalante",
  audiovisual_type: "cortometrajes",
  director_id: 1,
  year: 1934,
  duration: 89,
  synopses: { es: "Una barcaza en el Sena.", ca: "Una barcassa al Sena.", en: "A barge." },
  browse: {
    names: { es: "L’Atalante", en: "The Atalante", fr: "L’Atalante" },
    countries: ["FR"],
    audio: ["fr"],
    subtitles: ["ca", "es"],
    age: "7",
  },
});

describe("a listed work as the record its domain writes", () => {
  it("takes each column to its field: title, other titles, languages, rating, synopsis, category, director, link", () => {
    const record = recordOf(FULL, CATALAN, [
      director(1, { name: "Jean Vigo", heading: "Vigo, Jean, 1905-1934" }),
    ]);
    const at = (tag: string) => lines(record, tag);
    expect(at("001")).toEqual(["001 catav5"]);
    expect(at("003")).toEqual(["003 SpBaBC"]);
    expect(at("005")).toEqual(["005 20261120000000.0"]);
    // Date entered: the window's start; one date, 1934; France; 89 minutes; French audio.
    const fixed = at("008")[0]!.slice(4);
    expect(fixed.slice(0, 6)).toBe("261002");
    expect(fixed.slice(6, 11)).toBe("s1934");
    expect(fixed.slice(15, 18)).toBe("fr ");
    expect(fixed.slice(18, 21)).toBe("089");
    expect(fixed.slice(35, 38)).toBe("fre");
    expect(at("041")).toEqual(["041    $a fre $j cat $j spa"]);
    expect(at("245")[0]).toMatch(/^245 0. \$a L’Atalante\.$/);
    // The English title differs from 245's; the Spanish and French ones do not.
    expect(at("246")).toHaveLength(1);
    expect(at("246")[0]).toMatch(/^246 1 {2}\$i .+: \$a The Atalante$/);
    expect(at("300")).toEqual(["300    $a 1 online resource (89 min.)"]);
    // The synopsis the Catalan page shows, in Catalan.
    expect(at("520")).toEqual(["520    $a Una barcassa al Sena."]);
    expect(at("521")).toEqual(["521 8  $a Qualificació per edats: 7."]);
    expect(at("546")[0]).toContain("francès");
    // The category's label in Catalan, with the domain's thesaurus code.
    const label = stringsFor("ca").categories.cortometrajes;
    expect(at("655")).toEqual([`655  7 $a ${label}. $2 lemac`]);
    expect(at("700")).toEqual(["700 1  $a Vigo, Jean, $d 1905-1934, $e director. $4 drt"]);
    // The watch link as the site fills it in: the id and the slug, URL-encoded.
    expect(at("856")[0]).toMatch(
      /^856 40 \$u https:\/\/prestec\.example\/obra\/5\?s=l-atalante \$y .+$/,
    );
  });

  it("leaves out what the work lacks: no browse, no director, no year, no synopsis, no link", () => {
    const bare = work(8, { name: "Sin nada", year: null, duration: null, audiovisual_type: null });
    const record = recordOf(bare, DOMAIN);
    const tags = record.fields.map((field) => field.tag);
    for (const tag of ["003", "041", "246", "264", "520", "521", "546", "655", "700", "856"])
      expect(tags, tag).not.toContain(tag);
    expect(lines(record, "245")).toEqual(["245 00 $a Sin nada."]);
    expect(lines(record, "300")).toEqual(["300    $a 1 online resource"]);
    expect(lines(record, "008")[0]!.slice(4 + 6, 4 + 11)).toBe("nuuuu");
  });

  it("writes the director's name as written when there is no heading, in direct order", () => {
    const record = recordOf(work(9, { director_id: 1 }), DOMAIN, [
      director(1, { name: "Agnès Varda" }),
    ]);
    expect(lines(record, "700")).toEqual(["700 0  $a Agnès Varda, $e director. $4 drt"]);
  });

  it("chooses the synopsis as the work's page does: the domain's language, else its fallbacks", () => {
    const valencian: Domain = { ...CATALAN, locale: "ca-valencia" };
    // No Valencian synopsis: the Catalan one, as the Valencian page shows it.
    expect(lines(recordOf(FULL, valencian), "520")).toEqual(["520    $a Una barcassa al Sena."]);
    const french: Domain = { ...DOMAIN, locale: "fr" };
    // No French one, nor any fallback of French: Spanish, then English.
    expect(lines(recordOf(FULL, french), "520")).toEqual(["520    $a Una barcaza en el Sena."]);
  });

  it("keeps titles with combining marks and four-byte characters as written", () => {
    const title = "Ame\u0301lie 𝔄𝔫𝔡 🎬";
    const record = recordOf(work(10, { name: title }), DOMAIN);
    expect(lines(record, "245")).toEqual([`245 00 $a ${title}.`]);
  });
});

describe("a set's key", () => {
  /** The key of the listed set of one domain showing `works`. */
  function keyOf(works: Audiovisual[], domain: Domain = DOMAIN, heading?: string): string {
    const catalogue = catalogueOf(works, {
      domain,
      directors: [director(1, heading === undefined ? {} : { heading })],
    });
    const view = domainView(catalogue, domain, DATE);
    const info = { domain: domain.domain } as never;
    const { workDigests } = domainInputs("", view, info, new Map());
    return marcKey(view, "export_excel", "strings", view.orders.name, workDigests, "v1");
  }
  const base = [work(1, { director_id: 1 }), work(2)];

  it("is the same for the same inputs, and changes with whatever only the records show", () => {
    const key = keyOf(base);
    expect(keyOf([work(1, { director_id: 1 }), work(2)])).toBe(key);
    const changed = [
      keyOf([work(1, { director_id: 1, browse: { age: "12" } }), work(2)]),
      keyOf([work(1, { director_id: 1, synopses: { es: "Otra." } }), work(2)]),
      keyOf(base, DOMAIN, "Director, Uno, 1900-1980"),
      keyOf(base, { ...DOMAIN, marc_org_code: "SpMaBN" }),
      keyOf(base, { ...DOMAIN, marc_genre_source: "lcgft" }),
      keyOf(base, { ...DOMAIN, watch_url: "https://x.example/{id}" }),
      keyOf([work(1, { director_id: 1, name: "Renamed" }), work(2)]),
    ];
    for (const other of changed) expect(other).not.toBe(key);
    expect(new Set(changed).size).toBe(changed.length);
  });

  it("keys the sets apart: the deleted records of the downs are not the ups'", () => {
    const catalogue = catalogueOf(base);
    const view = domainView(catalogue, DOMAIN, DATE);
    const { workDigests } = domainInputs("", view, { domain: DOMAIN.domain } as never, new Map());
    const same: ListedWork[] = view.orders.name;
    const keys = (["export_excel", "export_up_movies", "export_down_movies"] as const).map((kind) =>
      marcKey(view, kind, "strings", same, workDigests, "v1"),
    );
    expect(new Set(keys).size).toBe(3);
  });
});
