import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.ts";

/**
 * The split of the suite (vitest.config.ts, as vitest reads it): a test file's kind is in its
 * name (`*.unit.test.ts` or `*.e2e.test.ts`), every test file runs in exactly one project, and the
 * unit project stays free of what makes a test slow or dependent on the machine.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

/** Every test file under test/, relative to the repository, as vitest's includes name them. */
async function testFiles(): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, "test"), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .sort();
}

interface Project {
  name: string;
  include: string[];
  globalSetup: string[];
}

function projects(): Project[] {
  return (config.test?.projects ?? []).map((entry) => {
    if (typeof entry !== "object" || entry === null || !("test" in entry))
      throw new Error(
        `a project given as ${JSON.stringify(entry)}: expected an inline configuration`,
      );
    const test = entry.test ?? {};
    const globalSetup = test.globalSetup === undefined ? [] : [test.globalSetup].flat();
    const name = typeof test.name === "object" ? test.name.label : test.name;
    return { name: String(name), include: test.include ?? [], globalSetup };
  });
}

/**
 * Helpers that start something outside this process, or run the compiled command: a unit test
 * file that imports one belongs to e2e.
 */
const OUTSIDE = [
  "CLI",
  "cli",
  "catalogue",
  "startCatalogue",
  "launchChromium",
  "launchBrowser",
  "startS3rver",
  "useS3rver",
  "startServer",
  "startServe",
  "startNginx",
  "startCaddy",
  "availableServers",
  "startEdge",
  "startWorkerd",
  "serveFolder",
  "makeFixture",
];

/** A suite or test skipped on some machines: what a missing program outside Node makes a file do. */
const SKIP = /\b(?:describe|it|test|suite)\.(?:skip|skipIf|runIf)\b|\b(?:ctx|context)\.skip\(/g;
/** A file that starts programs. */
const CHILD_PROCESS = /from\s+"node:child_process"/;

/** The names a file imports (static, type-only excepted, and destructured dynamic imports). */
function importedNames(source: string): string[] {
  const names: string[] = [];
  const lists = [
    ...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"[^"]+"/g),
    ...source.matchAll(/const\s*\{([^}]*)\}\s*=\s*await\s+import\(/g),
  ];
  for (const [, list] of lists) {
    for (const item of list!.split(",")) {
      const name = item
        .trim()
        .replace(/^type\s+.*/, "")
        .split(/\s+as\s+|\s*:\s*/)[0]!;
      if (name !== "") names.push(name);
    }
  }
  return names;
}

/** The kind a file's name says: `unit`, `e2e`, or null when it says none. */
const kindOf = (file: string) => /\.(unit|e2e)\.test\.ts$/.exec(file)?.[1] ?? null;

async function filesOf(kind: string): Promise<string[]> {
  return (await testFiles()).filter((file) => kindOf(file) === kind);
}

describe("the test projects", () => {
  it("are unit and e2e, each taking the files whose name says its kind", () => {
    expect(projects().map((p) => [p.name, p.include])).toEqual([
      ["unit", ["test/**/*.unit.test.ts"]],
      ["e2e", ["test/**/*.e2e.test.ts"]],
    ]);
  });

  it("hold every test file under test/: its name says unit or e2e", async () => {
    const untold = (await testFiles())
      .filter((file) => kindOf(file) === null)
      .map((file) => `${file}: name it *.unit.test.ts or *.e2e.test.ts`);
    expect(untold).toEqual([]);
    // The check itself: a name without a kind is caught, one with a kind is not.
    expect(kindOf("test/x/new.test.ts")).toBeNull();
    expect(kindOf("test/x/new.e2e.test.ts")).toBe("e2e");
  });

  it("compile lib/ for e2e only", () => {
    const [unit, e2e] = projects();
    expect(unit!.globalSetup).toEqual([]);
    expect(config.test?.globalSetup).toBeUndefined();
    expect(e2e!.globalSetup).toEqual(["test/setup/compile.ts"]);
  });

  it("run fast-check with one fixed seed, set before every file of both", () => {
    expect(config.test?.setupFiles).toEqual(["test/setup/fast-check.ts"]);
    for (const project of config.test?.projects ?? [])
      expect(project).toMatchObject({ extends: true });
    // This file runs after the setup file too.
    expect(fc.readConfigureGlobal().seed).toEqual(expect.any(Number));
  });

  it("keep servers, browsers, S3, other programs and the compiled command out of unit", async () => {
    const problems: string[] = [];
    for (const file of await filesOf("unit")) {
      const source = await readFile(path.join(ROOT, file), "utf8");
      const outside = importedNames(source).filter((name) => OUTSIDE.includes(name));
      if (outside.length > 0) problems.push(`${file} imports ${outside.join(", ")}`);
      if (/["'`/]lib\//.test(source)) problems.push(`${file} reads the compiled lib/`);
      // A unit test runs on every machine with npm's packages alone: it starts no program and
      // skips nothing (requireTool's skips are for e2e files).
      if (CHILD_PROCESS.test(source)) problems.push(`${file} imports node:child_process`);
      const skips = source.match(SKIP) ?? [];
      if (skips.length > 0) problems.push(`${file} skips: ${skips.join(", ")}`);
    }
    expect(problems).toEqual([]);
  });

  it("are told apart by the scans above (they find what e2e files use)", async () => {
    const scanned = await Promise.all(
      (await filesOf("e2e")).map(async (file) =>
        importedNames(await readFile(path.join(ROOT, file), "utf8")),
      ),
    );
    const found = new Set(scanned.flat().filter((name) => OUTSIDE.includes(name)));
    // Each kind of helper the scan looks for is seen in some e2e file: the scan reads real imports.
    for (const name of ["CLI", "launchChromium", "startS3rver", "startServer", "availableServers"])
      expect(found).toContain(name);
    const sources = await Promise.all(
      (await filesOf("e2e")).map((file) => readFile(path.join(ROOT, file), "utf8")),
    );
    expect(sources.some((source) => CHILD_PROCESS.test(source))).toBe(true);
    expect(sources.some((source) => (source.match(SKIP) ?? []).length > 0)).toBe(true);
  });
});
