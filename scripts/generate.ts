/**
 * A seeded generator of large catalogues, for tests and the benchmark: the same seed gives the
 * same content folder byte for byte. Large fixtures are generated, never committed.
 *
 *   npx tsx scripts/generate.ts --works 20000 --domains 3 --out /tmp/big [--seed 1] [--bio 400] [--covers 24] [--languages 2] [--browse]
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { BROWSE_COLUMNS, browseCells } from "./generate-browse.ts";

export interface GenerateOptions {
  works: number;
  domains: number;
  seed?: number;
  /** Approximate characters of each biography (Spanish and English each). */
  bio?: number;
  /** Biographies in this many of the seven languages (2: Spanish and English; up to 7, as a network in Spain writes them). */
  languages?: number;
  /** Distinct cover images; works share them (identical sources are processed once). */
  covers?: number;
  /** Build date the availability windows are drawn around. */
  date?: string;
  /** Draw the browsing columns (country, languages, age rating, accessibility, titles in other languages). */
  browse?: boolean;
}

/** mulberry32: tiny, fast and good enough to make test data reproducible. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "amanecer",
  "río",
  "ciudad",
  "sombra",
  "tren",
  "luna",
  "mar",
  "noche",
  "jardín",
  "caballero",
  "ópera",
  "última",
  "carta",
  "viaje",
  "niña",
  "máquina",
  "invierno",
  "faro",
  "corazón",
  "montaña",
  "puerto",
  "circo",
  "ángel",
  "reloj",
  "silencio",
  "tormenta",
  "isla",
  "camino",
  "espejo",
  "fuego",
  "Ébano",
  "Águila",
  "secreto",
  "verano",
  "lluvia",
];
const TYPES = ["peliculas", "documentales", "cortometrajes", "artes-escenicas", ""];
const SENTENCES_ES = [
  "Rodó sus primeras películas con una cámara prestada y un equipo de amigos.",
  "Su obra mezcla el documental con la ficción y retrata la vida de los puertos.",
  "Fue pionera del montaje y dirigió más de cuarenta títulos en dos décadas.",
  "Trabajó en estudios de tres países antes de fundar su propia productora.",
  "La crítica destacó su uso de la luz natural y de actores no profesionales.",
];
const SENTENCES_EN = [
  "Shot the first films with a borrowed camera and a crew of friends.",
  "The work mixes documentary with fiction and portrays life in the harbours.",
  "A pioneer of editing who directed more than forty titles in two decades.",
  "Worked in studios in three countries before founding a production company.",
  "Critics praised the use of natural light and non-professional actors.",
];

/** The other five languages' biographies, when more than two are asked for. */
const MORE_SENTENCES: Record<string, string[]> = {
  ca: [
    "Va rodar les primeres pel·lícules amb una càmera deixada i un equip d'amics.",
    "La seva obra barreja el documental i la ficció i retrata la vida dels ports.",
    "La crítica en va destacar l'ús de la llum natural.",
  ],
  gl: [
    "Rodou as primeiras películas cunha cámara emprestada e un equipo de amigos.",
    "A súa obra mestura o documental coa ficción e retrata a vida dos portos.",
    "A crítica salientou o uso da luz natural.",
  ],
  eu: [
    "Lehen filmak mailegatutako kamera batekin eta lagun talde batekin filmatu zituen.",
    "Bere lanak dokumentala eta fikzioa nahasten ditu eta portuetako bizitza erretratatzen du.",
    "Kritikak argi naturalaren erabilera nabarmendu zuen.",
  ],
  va: [
    "Va rodar les primeres pel·lícules amb una càmera prestada i un equip d'amics.",
    "La seua obra mescla el documental i la ficció i retrata la vida dels ports.",
    "La crítica en destacà l'ús de la llum natural.",
  ],
  fr: [
    "A tourné ses premiers films avec une caméra empruntée et une équipe d'amis.",
    "Son œuvre mêle le documentaire et la fiction et décrit la vie des ports.",
    "La critique a salué l'usage de la lumière naturelle.",
  ],
};

const csvCell = (value: string | number | null) => {
  if (value === null) return "";
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const csvLine = (cells: (string | number | null)[]) => cells.map(csvCell).join(",") + "\n";

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Writes a complete content folder (four CSVs and the cover images) into `dir`. */
export async function generateCatalogue(dir: string, options: GenerateOptions): Promise<void> {
  const rand = random(options.seed ?? 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const bioLength = options.bio ?? 400;
  const coverCount = options.covers ?? 24;
  const date = options.date ?? "2026-11-20";
  await mkdir(path.join(dir, "covers"), { recursive: true });

  for (let i = 0; i < coverCount; i++) {
    const hue = Math.floor((i * 360) / coverCount);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300"><rect width="200" height="300" fill="hsl(${hue},55%,40%)"/><circle cx="100" cy="120" r="${30 + (i % 5) * 8}" fill="hsl(${(hue + 180) % 360},60%,70%)"/></svg>`;
    await writeFile(
      path.join(dir, "covers", `cover-${i}.png`),
      await sharp(Buffer.from(svg)).png().toBuffer(),
    );
  }

  let domains = csvLine([
    "domain",
    "name",
    "base_url",
    "media_url",
    "locale",
    "default_ordering",
    "new_days",
    "export_window_days",
  ]);
  const hosts: string[] = [];
  for (let d = 0; d < options.domains; d++) {
    const host = `domain-${d + 1}.example`;
    hosts.push(host);
    domains += csvLine([
      host,
      `Red de bibliotecas ${d + 1}`,
      null,
      null,
      d % 2 === 0 ? "es" : "en",
      ["name", "-year", "year"][d % 3]!,
      30,
      30,
    ]);
  }

  const directorCount = Math.max(1, Math.ceil(options.works / 10));
  const more = Object.keys(MORE_SENTENCES).slice(
    0,
    Math.max(0, Math.min(7, options.languages ?? 2) - 2),
  );
  let directors = csvLine([
    "id",
    "name",
    "slug",
    "photo",
    "show_img",
    "description",
    "description_es",
    "description_en",
    ...more.map((l) => `description_${l}`),
  ]);
  const bio = (sentences: string[]) => {
    let text = "";
    while (text.length < bioLength) text += (text ? " " : "") + pick(sentences);
    return text;
  };
  for (let i = 1; i <= directorCount; i++) {
    directors += csvLine([
      i,
      `Directora ${pick(WORDS)} ${i}`,
      `directora-${i}`,
      i % 7 === 0 ? `covers/cover-${i % coverCount}.png` : null,
      i % 2 === 0 ? "true" : "false",
      null,
      bio(SENTENCES_ES),
      bio(SENTENCES_EN),
      ...more.map((l) => bio(MORE_SENTENCES[l]!)),
    ]);
  }

  let works = csvLine([
    "id",
    "name",
    "slug",
    "audiovisual_type",
    "director_id",
    "year",
    "duration",
    "cover",
    "status_global",
    ...(options.browse ? BROWSE_COLUMNS : []),
  ]);
  let availability = csvLine(["audiovisual_id", "domain", "available_from", "available_until"]);
  for (let i = 1; i <= options.works; i++) {
    const title = `${pick(WORDS)} ${pick(WORDS)} ${1 + Math.floor(rand() * 120)}`;
    const name = title.charAt(0).toUpperCase() + title.slice(1);
    const year = rand() < 0.05 ? null : 1895 + Math.floor(rand() * 130);
    const director = rand() < 0.08 ? null : 1 + Math.floor(rand() * directorCount);
    const status = rand() < 0.03 ? 0 : 1;
    works += csvLine([
      i,
      name,
      `obra-${i}`,
      pick(TYPES) || null,
      director,
      year,
      5 + Math.floor(rand() * 170),
      `covers/cover-${i % coverCount}.png`,
      status,
      ...(options.browse ? browseCells(i) : []),
    ]);
    for (const host of hosts) {
      const r = rand();
      if (r < 0.15) continue; // not offered in this domain
      let from: string;
      let until: string | null = null;
      if (r < 0.2)
        from = addDays(date, 1 + Math.floor(rand() * 60)); // upcoming
      else if (r < 0.3)
        from = addDays(date, -Math.floor(rand() * 40)); // new
      else from = addDays(date, -40 - Math.floor(rand() * 3000));
      if (r > 0.9)
        until = addDays(date, -Math.floor(rand() * 90)); // withdrawn, recently or long ago
      else if (r > 0.8) until = addDays(date, Math.floor(rand() * 365));
      if (until !== null && until < from) until = from;
      availability += csvLine([i, host, from, until]);
    }
  }

  await writeFile(path.join(dir, "domains.csv"), domains);
  await writeFile(path.join(dir, "directors.csv"), directors);
  await writeFile(path.join(dir, "audiovisuals.csv"), works);
  await writeFile(path.join(dir, "availability.csv"), availability);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: {
      works: { type: "string", default: "20000" },
      domains: { type: "string", default: "3" },
      seed: { type: "string", default: "1" },
      bio: { type: "string", default: "400" },
      covers: { type: "string", default: "24" },
      languages: { type: "string", default: "2" },
      out: { type: "string" },
      browse: { type: "boolean", default: false },
    },
  });
  if (!values.out) {
    console.error(
      "usage: tsx scripts/generate.ts --out DIR [--works N] [--domains N] [--seed N] [--bio CHARS] [--covers N] [--languages 2-7] [--browse]",
    );
    process.exit(1);
  }
  await generateCatalogue(values.out, {
    works: Number(values.works),
    domains: Number(values.domains),
    seed: Number(values.seed),
    bio: Number(values.bio),
    covers: Number(values.covers),
    languages: Number(values.languages),
    browse: values.browse,
  });
  console.error(`wrote ${values.works} works in ${values.domains} domains to ${values.out}`);
}
