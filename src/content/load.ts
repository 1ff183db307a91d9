import { realpath } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { InputError, type Problem, UserError } from "../errors.ts";
import { readCsv, type CsvRow } from "./csv.ts";
import { drawMissing, type ToDraw } from "./missing-images.ts";
import type { ImageSource, ImageHeaderCache } from "./source-images.ts";
import { checkImages, checkLogos, type ImageUse } from "./row-images.ts";
import { FILES } from "./csv-files.ts";
import type { Audiovisual, Director, Domain } from "./schema.ts";
import { checkLanguages } from "./languages.ts";
import { unnamedLanguages } from "./browse-columns.ts";

/** The window in which a work is available in one domain; `until` is the last day, inclusive. */
export interface Window {
  from: string;
  until: string | null;
}

/** The whole validated catalogue, as every later stage sees it. */
export interface Catalogue {
  domains: Domain[];
  directors: Map<number, Director>;
  works: Audiovisual[];
  /** Per domain, per work id. */
  windows: Map<string, Map<number, Window>>;
  /** Per image path as written in the CSVs. */
  images: Map<string, ImageSource>;
}

export interface ContentCheck {
  catalogue: Catalogue | null;
  problems: Problem[];
  warnings: Problem[];
  /** The images the content names but lacks (each with a warning): `loadCatalogue` draws them. */
  missing: ToDraw[];
}

interface Located<T> {
  line: number;
  value: T;
}

/**
 * Loads and checks the content folder; never throws for bad content, returns every problem.
 * `headers`: image headers read by earlier builds (see ImageHeaderCache), learning the new ones.
 */
export async function checkContent(
  contentDir: string,
  headers?: ImageHeaderCache,
): Promise<ContentCheck> {
  let root: string;
  try {
    root = await realpath(contentDir);
  } catch {
    throw new UserError(
      `content folder not found: ${contentDir} (pass --content DIR, the folder that holds domains.csv)`,
    );
  }
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const name = (file: string) => path.join(contentDir, file);

  async function load<S extends z.ZodType>(spec: {
    file: string;
    schema: S;
    required: readonly string[];
    fast?: FastCheck<z.output<S>>;
  }) {
    const file = name(spec.file);
    const table = await readCsv(root, spec.file, file, {
      required: spec.required,
      optional: columnsOf(spec.schema).filter((column) => !spec.required.includes(column)),
      elsewhere: columnHomes(),
    });
    problems.push(...table.problems);
    warnings.push(...table.warnings);
    // A file whose header lacks a required column yields no rows: its other errors would be noise.
    // A file that could not be read at all (encoding, an unclosed quote) also has no rows; then
    // references into it are not checked, or each would be reported again as dangling.
    const unreadable = table.rows.length === 0 && table.problems.length > 0;
    if (table.problems.some((p) => p.line === 1 && p.column !== undefined))
      return { rows: [], raw: [], unreadable: true };
    return { rows: validateRows(table.rows, spec, file, problems), raw: table.rows, unreadable };
  }

  const [domainsTable, directorsTable, worksTable, availabilityTable] = await Promise.all([
    load(FILES.domains),
    load(FILES.directors),
    load(FILES.audiovisuals),
    load(FILES.availability),
  ]);
  const [domains, directors, works, availability] = [
    domainsTable.rows,
    directorsTable.rows,
    worksTable.rows,
    availabilityTable.rows,
  ];
  // References are checked against every key written in a file, valid row or not, so that one bad
  // cell is reported once and not again as a dangling reference in another file.
  // The valid rows' keys are looked up first (numbers, no string made per lookup); the keys as
  // written are gathered only when a reference is not among them.
  const keysOf = <T>(
    table: { rows: Located<T>[]; raw: CsvRow[] },
    column: string,
    key: (row: T) => number | string,
  ) => {
    const valid = new Set(table.rows.map((row) => key(row.value)));
    let written: Set<string | null | undefined> | null = null;
    return (wanted: number | string) =>
      valid.has(wanted) ||
      (written ??= new Set(table.raw.map((row) => row.cells[column]))).has(String(wanted));
  };

  const domainsFile = name(FILES.domains.file);
  const directorsFile = name(FILES.directors.file);
  const worksFile = name(FILES.audiovisuals.file);
  const availabilityFile = name(FILES.availability.file);

  unique(domains, (d) => d.domain, domainsFile, "domain", problems);
  checkLanguages(domains, domainsFile, problems, warnings);
  unique(directors, (d) => d.id, directorsFile, "id", problems);
  unique(directors, (d) => d.slug, directorsFile, "slug", problems);
  unique(works, (w) => w.id, worksFile, "id", problems);
  unique(works, (w) => w.slug, worksFile, "slug", problems);
  unnamedLanguages(works, worksFile, warnings);

  const hasDirector = keysOf(directorsTable, "id", (d) => d.id);
  for (const { line, value } of works) {
    if (
      value.director_id !== null &&
      !directorsTable.unreadable &&
      !hasDirector(value.director_id)
    ) {
      problems.push({
        file: worksFile,
        line,
        column: "director_id",
        message: `no director with id ${value.director_id} in ${directorsFile}`,
      });
    }
  }

  const hasWork = keysOf(worksTable, "id", (w) => w.id);
  const hasDomain = keysOf(domainsTable, "domain", (d) => d.domain);
  const windows = new Map<string, Map<number, Window>>(
    domains.map((d) => [d.value.domain, new Map()]),
  );
  // Per domain, per work: the line of its first row.
  const firstRow = new Map<string, Map<number, number>>();
  for (const { line, value } of availability) {
    let ok = true;
    if (!worksTable.unreadable && !hasWork(value.audiovisual_id)) {
      problems.push({
        file: availabilityFile,
        line,
        column: "audiovisual_id",
        message: `no audiovisual with id ${value.audiovisual_id} in ${worksFile}`,
      });
      ok = false;
    }
    if (!domainsTable.unreadable && !hasDomain(value.domain)) {
      problems.push({
        file: availabilityFile,
        line,
        column: "domain",
        message: `no domain ${JSON.stringify(value.domain)} in ${domainsFile}`,
      });
      ok = false;
    }
    if (value.available_until !== null && value.available_until < value.available_from) {
      problems.push({
        file: availabilityFile,
        line,
        column: "available_until",
        message: `${value.available_until} is before available_from ${value.available_from}`,
      });
      ok = false;
    }
    let seen = firstRow.get(value.domain);
    if (seen === undefined) firstRow.set(value.domain, (seen = new Map<number, number>()));
    const earlier = seen.get(value.audiovisual_id);
    if (earlier !== undefined) {
      problems.push({
        file: availabilityFile,
        line,
        column: "audiovisual_id",
        message: `audiovisual ${value.audiovisual_id} already has a row for ${value.domain} at line ${earlier}: keep one row per work and domain`,
      });
      ok = false;
    } else {
      seen.set(value.audiovisual_id, line);
    }
    if (ok)
      windows
        .get(value.domain)
        ?.set(value.audiovisual_id, { from: value.available_from, until: value.available_until });
  }

  const missing: ToDraw[] = [];
  // A stand-in is drawn from the row that names the image: a work's title and its director's name.
  let names: Map<number, string> | undefined;
  const directorName = (id: number | null) =>
    id === null
      ? ""
      : ((names ??= new Map(directors.map((d) => [d.value.id, d.value.name]))).get(id) ?? "");
  const toDraw = (use: ImageUse, rel: string): ToDraw =>
    use.kind === "cover"
      ? {
          rel,
          kind: "cover",
          work: use.row as Audiovisual,
          director: directorName((use.row as Audiovisual).director_id),
        }
      : { rel, kind: "photo", director: use.row as Director };
  const uses: ImageUse[] = works.map((w) => ({
    file: worksFile,
    line: w.line,
    column: "cover",
    rel: w.value.cover,
    kind: "cover",
    row: w.value,
  }));
  for (const d of directors) {
    if (d.value.photo !== null)
      uses.push({
        file: directorsFile,
        line: d.line,
        column: "photo",
        rel: d.value.photo,
        kind: "photo",
        row: d.value,
      });
  }
  const images = await checkImages(contentDir, root, headers, uses, toDraw, {
    problems,
    warnings,
    missing,
  });
  await checkLogos(contentDir, root, headers, domains, domainsFile, images, { problems, warnings });

  if (problems.length > 0 || domains.length === 0) {
    if (problems.length === 0)
      problems.push({ file: domainsFile, line: 1, message: "no domain: add at least one row" });
    return { catalogue: null, problems, warnings, missing };
  }
  return {
    catalogue: {
      domains: domains.map((d) => d.value),
      directors: new Map(directors.map((d) => [d.value.id, d.value])),
      works: works.map((w) => w.value),
      windows,
      images,
    },
    problems,
    warnings,
    missing,
  };
}

/**
 * Loads the catalogue or throws every problem at once as an InputError. A missing image is drawn
 * into `cacheDir` (the build's image cache) and the catalogue points at the drawing.
 */
export async function loadCatalogue(
  contentDir: string,
  onWarning: (warning: Problem) => void = () => {},
  headers?: ImageHeaderCache,
  cacheDir = path.resolve(".cache", "catalogue"),
): Promise<Catalogue> {
  const check = await checkContent(contentDir, headers);
  check.warnings.forEach(onWarning);
  if (check.catalogue === null) throw new InputError(check.problems);
  for (const image of await drawMissing(check.missing, cacheDir))
    check.catalogue.images.set(image.rel, image);
  return check.catalogue;
}

let homes: Map<string, string[]> | undefined;
/** Each column of the content files, and the files that have it. */
function columnHomes(): Map<string, string[]> {
  if (homes !== undefined) return homes;
  homes = new Map();
  for (const spec of Object.values(FILES)) {
    for (const column of columnsOf(spec.schema))
      homes.set(column, [...(homes.get(column) ?? []), spec.file]);
  }
  return homes;
}

function columnsOf(schema: z.ZodType): string[] {
  // A schema is either an object or an object piped into a transform (domains, for the defaults).
  const def = schema as unknown as {
    shape?: Record<string, unknown>;
    in?: { shape: Record<string, unknown> };
  };
  return Object.keys(def.shape ?? def.in?.shape ?? {});
}

type FastCheck<T> = (cells: CsvRow["cells"]) => T | undefined;

function validateRows<S extends z.ZodType>(
  rows: CsvRow[],
  { schema, fast }: { schema: S; fast?: FastCheck<z.output<S>> },
  file: string,
  problems: Problem[],
): Located<z.output<S>>[] {
  const valid: Located<z.output<S>>[] = [];
  for (const row of rows) {
    // The schema's written-out twin accepts valid rows quickly; the schema itself words the problems.
    const value = fast?.(row.cells);
    if (value !== undefined) {
      valid.push({ line: row.line, value });
      continue;
    }
    const result = schema.safeParse(row.cells);
    if (result.success) {
      valid.push({ line: row.line, value: result.data });
    } else {
      for (const issue of result.error.issues) {
        problems.push({
          file,
          line: row.line,
          column: String(issue.path[0] ?? "row"),
          message: issue.message,
        });
      }
    }
  }
  return valid;
}

function unique<T>(
  rows: Located<T>[],
  key: (row: T) => string | number,
  file: string,
  column: string,
  problems: Problem[],
) {
  const first = new Map<string | number, number>();
  for (const { line, value } of rows) {
    const k = key(value);
    const earlier = first.get(k);
    if (earlier === undefined) first.set(k, line);
    else
      problems.push({
        file,
        line,
        column,
        message: `${JSON.stringify(k)} is already used at line ${earlier}`,
      });
  }
}
