import { readFileSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The layers of src/ and the rules between them, checked on the import graph madge reads (type
 * imports and dynamic imports included: a type-only cycle still ties two modules' meaning).
 *
 * A part is a folder of src/ or a module at its root. Each may import its own modules and the
 * parts listed in its `mayImport`; the lists are the documentation, so keep a reason beside any
 * entry added. Every part may also import BASE (below everything, importing nothing of ours but
 * what each lists).
 */
const BASE = ["errors.ts", "program.ts", "util"];

const LAYERS: Record<string, { job: string; mayImport: string[] }> = {
  // The base.
  "errors.ts": {
    job: "the errors a user sees (FILE:LINE: column: message) and the bugs",
    mayImport: [],
  },
  "program.ts": {
    job: "where the running code lies (sources or lib/), its digest, dependency versions",
    mayImport: [],
  },
  util: {
    job: "small shared pieces: hashing, dates, code versions, concurrency, memory, file states, the zip writer, the Reporter type",
    mayImport: ["errors.ts", "program.ts"],
  },
  types: { job: "declarations for packages without types", mayImport: [] },
  workers: {
    job: "generic worker threads: a request/reply channel and the script a thread runs",
    mayImport: [],
  },
  draw: { job: "stand-in images drawn from a row (SVG, rendered to JPEG)", mayImport: [] },
  marc: { job: "MARC 21 records: a work's record, ISO 2709 and MARCXML files", mayImport: [] },
  // The data.
  content: {
    job: "reading and checking the librarians' files (CSV, images; a missing image drawn)",
    mayImport: ["draw"],
  },
  model: {
    job: "what each domain lists at a date, in every ordering, and the works' digests",
    mayImport: ["content"],
  },
  // Where files go: knows nothing of what they hold.
  output: {
    job: "the output folder: versions, manifest, a file sink and writer threads running the jobs they are given",
    mayImport: ["workers"],
  },
  // The stages: each turns the model into files of the output.
  media: {
    job: "processed images: covers and photos, cached between builds",
    mayImport: ["content", "output"],
  },
  api: {
    job: "the JSON API: layout, pages of every ordering, OpenAPI",
    mayImport: ["content", "model", "output"],
  },
  // What every output shows a reader, below the outputs that show it.
  web: {
    job: "page addresses, interface texts, HTML and XML escaping, the pages' security policy",
    mayImport: ["api", "content"],
  },
  site: {
    job: "the HTML catalogue: pages, images, search index, feeds, sitemaps; the library's site folder",
    mayImport: ["api", "content", "media", "model", "output", "web", "workers"],
  },
  exports: {
    job: "the xlsx exports and the spreadsheet job of the writer threads",
    mayImport: ["api", "content", "model", "output", "web"],
  },
  // The orchestration, above the stages it runs.
  pipeline: {
    job: "a build: the no-change check, load, the stages, the commit",
    mayImport: ["api", "content", "exports", "marc", "media", "model", "output", "site", "web"],
  },
  // What reads a finished build.
  serve: {
    job: "serving a build, and the nginx and Caddy configurations",
    mayImport: ["api", "output", "web"],
  },
  edge: {
    job: "Netlify and Cloudflare configurations and the Worker",
    mayImport: ["output", "serve"],
  },
  publish: {
    job: "publishing a build to S3, a folder or an archive: targets/, records/, offline/",
    mayImport: ["api", "model", "output", "serve", "web"],
  },
  // The top.
  init: { job: "a new project's starter content", mayImport: ["content", "draw"] },
  dev: {
    job: "the development server: build, watch, reload, preview",
    mayImport: ["output", "pipeline", "serve", "site"],
  },
  cli: {
    job: "the command line",
    mayImport: ["content", "dev", "edge", "init", "output", "pipeline", "publish", "serve"],
  },
  "index.ts": { job: "the package's API", mayImport: ["content", "model", "output", "pipeline"] },
};

/** The part a module of src/ belongs to. */
const partOf = (module: string) => module.split("/")[0]!;

const mayImport = (from: string, to: string): boolean => {
  const layer = LAYERS[from]!;
  if (from === to || layer.mayImport.includes(to)) return true;
  // The base imports nothing of ours but what it lists.
  return !BASE.includes(from) && from !== "types" && BASE.includes(to);
};

const ROOT = path.resolve(import.meta.dirname, "../..");
let graph: Record<string, string[]>;
let circular: string[][];
let skipped: string[];

beforeAll(async () => {
  const result = await madge(path.join(ROOT, "src"), {
    baseDir: path.join(ROOT, "src"),
    fileExtensions: ["ts"],
    tsConfig: path.join(ROOT, "tsconfig.json"),
    detectiveOptions: { ts: { skipTypeImports: false, skipAsyncImports: false } },
  });
  graph = result.obj();
  circular = result.circular();
  skipped = result.warnings().skipped;
}, 60_000);

describe("src/", () => {
  it("is read whole by madge, type-only and dynamic imports included", () => {
    // Checks of the checker: an empty or partial graph would pass every rule below.
    expect(Object.keys(graph).length).toBeGreaterThan(100);
    expect(graph["model/order.ts"]).toContain("model/listed-work.ts"); // `import type` only
    expect(graph["pipeline/read-inputs.ts"]).toContain("site/render.ts"); // type import and import()
    // What madge could not resolve must be packages, never a module of ours.
    expect(skipped.filter((specifier) => specifier.startsWith("."))).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(circular.map((cycle) => cycle.join(" > "))).toEqual([]);
  });

  it("imports only down the layers", () => {
    const unknown = Object.keys(graph)
      .map(partOf)
      .filter((part) => LAYERS[part] === undefined);
    expect([...new Set(unknown)], "parts of src/ missing from LAYERS").toEqual([]);
    const wrong: string[] = [];
    for (const [module, imports] of Object.entries(graph)) {
      for (const imported of imports) {
        if (!mayImport(partOf(module), partOf(imported)))
          wrong.push(`${module} imports ${imported}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has layers that point one way (the rules themselves have no cycle)", () => {
    const parts = Object.keys(LAYERS);
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      parts.some(
        (next) =>
          next !== from &&
          mayImport(from, next) &&
          !seen.has(next) &&
          (next === to || reaches(next, to, seen.add(next))),
      );
    const both = parts.flatMap((a) =>
      parts.filter((b) => a < b && reaches(a, b) && reaches(b, a)).map((b) => `${a} <-> ${b}`),
    );
    expect(both).toEqual([]);
  });

  it("has no module over 400 lines", () => {
    const long = Object.keys(graph)
      .map((module) => ({
        module,
        lines: readFileSync(path.join(ROOT, "src", module), "utf8").split("\n").length - 1,
      }))
      .filter(({ lines }) => lines > 400);
    expect(long).toEqual([]);
  });

  it("names each module once: no basename repeats but a command's and its folder's entry", () => {
    const byName = new Map<string, string[]>();
    for (const module of Object.keys(graph)) {
      const name = path.basename(module);
      byName.set(name, [...(byName.get(name) ?? []), module]);
    }
    // cli/commands/dev.ts runs dev/dev.ts: the one pairing a shared name explains.
    const commandAndFolder = (modules: string[]) =>
      modules.length === 2 &&
      modules.some((m) => m === `cli/commands/${path.basename(m)}`) &&
      modules.some((m) => m === `${path.basename(m, ".ts")}/${path.basename(m)}`);
    const repeated = [...byName.values()].filter((m) => m.length > 1 && !commandAndFolder(m));
    expect(repeated).toEqual([]);
  });

  it("keeps publish's targets free of its records and offline copies", () => {
    const wrong = Object.entries(graph).flatMap(([module, imports]) =>
      module.startsWith("publish/targets/")
        ? imports
            .filter((i) => i.startsWith("publish/") && !i.startsWith("publish/targets/"))
            .map((i) => `${module} imports ${i}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });
});
