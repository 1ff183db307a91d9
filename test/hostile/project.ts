import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { CLI, tempDir } from "../helpers/catalogue.ts";
import { writeContent, type ContentFiles } from "../helpers/content.ts";
import { cli, escapeRegExp, snapshot, type CliResult } from "../reliability/helpers.ts";

/**
 * A library's folder as a new user or an attacker leaves it: `content/` (the minimal catalogue of
 * test/helpers/content.ts unless a file is given), `site/`, and `dist/` once built. The command
 * runs there with relative paths, so its messages name files as the user sees them
 * (`content/domains.csv:2: …`, `site/pages/x.md:1: …`).
 */
export interface Project {
  dir: string;
  /** Runs the real command line (bin/catalogue.js on lib/) in the project folder. */
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** The same, killed after `ms` (a template without bounds): also says whether it was, and how long it took. */
  runTimed(args: string[], ms: number, env?: NodeJS.ProcessEnv): Promise<TimedResult>;
  /** `build` with a fixed date and a cache of the project's own; extra flags appended. */
  build(...flags: string[]): Promise<CliResult>;
  validate(...flags: string[]): Promise<CliResult>;
  /** Writes files relative to the project folder (parents made). */
  write(files: Record<string, string | Buffer>): Promise<void>;
  /** A symbolic link at `rel` (relative to the project) pointing at `target`. */
  link(rel: string, target: string): Promise<void>;
  /** A digest of every file of the current output version ("none" without one): equal digests, equal output. */
  outputDigest(): Promise<string>;
  cleanup(): Promise<void>;
}

export interface TimedResult extends CliResult {
  /** Killed by us at the time limit. */
  killed: boolean;
  /** The signal that ended it otherwise (V8's fatal errors end a process with SIGTRAP or SIGABRT), or null. */
  signal: string | null;
  seconds: number;
}

export const DATE = "2026-11-20";
export const BUILD = [
  "build",
  "--content",
  "content",
  "--out",
  "dist",
  "--date",
  DATE,
  "--cache",
  ".cache",
];

export async function newProject(
  files: ContentFiles = {},
  site: Record<string, string | Buffer> = {},
): Promise<Project> {
  const { dir, cleanup } = await tempDir("catalogue-hostile-");
  await writeContent(path.join(dir, "content"), files);
  const project: Project = {
    dir,
    run: (args, env) => cli(args, { cwd: dir, env: env ?? process.env }),
    runTimed: (args, ms, env) => runTimed(dir, args, ms, env ?? process.env),
    build: (...flags) => project.run([...BUILD, ...flags]),
    validate: (...flags) => project.run(["validate", "--content", "content", ...flags]),
    async write(entries) {
      for (const [rel, bytes] of Object.entries(entries)) {
        await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
        // A link a previous case left (project.link) is replaced, not written through.
        await rm(path.join(dir, rel), { force: true });
        await writeFile(path.join(dir, rel), bytes);
      }
    },
    async link(rel, target) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await rm(path.join(dir, rel), { force: true, recursive: true });
      await symlink(target, path.join(dir, rel));
    },
    async outputDigest() {
      const out = path.join(dir, "dist");
      if (!existsSync(out)) return "none";
      return createHash("md5")
        .update(JSON.stringify(await snapshot(out)))
        .digest("hex");
    },
    cleanup,
  };
  await project.write(
    Object.fromEntries(Object.entries(site).map(([rel, text]) => [`site/${rel}`, text])),
  );
  return project;
}

/**
 * The project of a test file: made and built (with `flags`) before its tests, so that each test
 * has a previous output to keep; removed after them. `setup` runs before that first build. The
 * object stands for the project once the file's tests run.
 */
export function builtProject(
  flags: string[] = [],
  setup?: (project: Project) => Promise<void>,
): Project {
  let current: Project | undefined;
  beforeAll(async () => {
    current = await newProject();
    await setup?.(current);
    const first = await current.build(...flags);
    expect(first.code, first.stderr).toBe(0);
  }, 120_000);
  afterAll(() => current?.cleanup());
  return new Proxy({} as Project, {
    get(_, key) {
      if (current === undefined)
        throw new Error("the project is made in beforeAll: use it inside a test");
      return Reflect.get(current, key);
    },
  });
}

/** A stack frame, as Node prints one: what a user-facing error never shows. */
const STACK_FRAME = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/**
 * The command refused its input as the guide says: exit 1, a line `FILE:LINE: …` naming the file
 * (`line: null` where the file as a whole is the problem, such as a link or a folder: `FILE: …` or
 * `FILE:LINE: …`), no stack trace and no "internal error". `about` must match that line (the
 * wording is free; what it is about is not). Returns the line.
 */
export function expectRefused(
  result: CliResult,
  file: string,
  line: number | number[] | "any" | null,
  about?: RegExp,
): string {
  const shown = `exit ${result.code}\n--- stderr ---\n${result.stderr.slice(0, 6000)}\n--- stdout ---\n${result.stdout.slice(0, 2000)}`;
  expect(result.stderr, shown).not.toMatch(/internal error/);
  expect(result.stderr, shown).not.toMatch(STACK_FRAME);
  expect(result.code, shown).toBe(1);
  const where =
    line === null
      ? "(?::\\d+)?"
      : line === "any"
        ? ":\\d+"
        : Array.isArray(line)
          ? `:(?:${line.join("|")})`
          : `:${line}`;
  // The command's name may come first (`catalogue build: FILE:LINE: …`), as its one-line errors say.
  const lines = result.stderr
    .split("\n")
    .filter((l) =>
      new RegExp(`^(catalogue [a-z]+: )?${escapeRegExp(file)}${where}: (?!warning:)`).test(l),
    );
  expect(
    lines,
    `no line naming ${file}${line === null ? "" : `:${String(line)}`} as an error\n${shown}`,
  ).not.toEqual([]);
  if (about !== undefined)
    expect(
      lines.some((l) => about.test(l)),
      `no line naming ${file} says ${about}\n${shown}`,
    ).toBe(true);
  return lines.find((l) => about === undefined || about.test(l))!;
}

/**
 * A Nunjucks template refused: as a whole (Nunjucks dropped, the message naming the file and
 * Liquid, which has no line to give), or at the line that breaks the rules.
 */
export function expectNunjucksRefused(result: CliResult, file: string): void {
  const line = expectRefused(result, file, null);
  if (!/liquid/i.test(line)) expectRefused(result, file, "any");
}

/** Exit 0 or 1, never a bug's exit 2 or a crash (a signal, V8's fatal error). */
export function expectNoCrash(result: CliResult): void {
  const shown = `exit ${result.code}\n${result.stderr.slice(0, 4000)}`;
  expect([0, 1], shown).toContain(result.code);
  expect(result.stderr, shown).not.toMatch(/internal error|Fatal|FATAL ERROR/);
  expect(result.stderr, shown).not.toMatch(STACK_FRAME);
}

/** A file of the current output (`rel` relative to the output folder) as text, or null. */
export async function page(project: Project, rel: string): Promise<string | null> {
  try {
    return await readFile(path.join(project.dir, "dist", rel), "utf8");
  } catch {
    return null;
  }
}

/** Every file of the current output whose bytes contain `needle`. */
export async function filesContaining(project: Project, needle: string): Promise<string[]> {
  const out = path.join(project.dir, "dist");
  if (!existsSync(out)) return [];
  const root = await realpath(out);
  const found: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(needle)) found.push(path.relative(root, file));
  }
  return found;
}

function runTimed(
  cwd: string,
  args: string[],
  ms: number,
  env: NodeJS.ProcessEnv,
): Promise<TimedResult> {
  const started = performance.now();
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env, timeout: ms, killSignal: "SIGKILL", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const killed = error !== null && (error as { killed?: boolean }).killed === true;
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        const signal = killed ? null : ((error as { signal?: string } | null)?.signal ?? null);
        done({
          code,
          stdout: String(stdout),
          stderr: String(stderr),
          killed,
          signal,
          seconds: (performance.now() - started) / 1000,
        });
      },
    );
  });
}

/** A CSV cell as a spreadsheet writes it: quoted when it holds a comma, a quote or a line break. */
const cell = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/**
 * domains.csv of the minimal catalogue's two domains (uno.example on line 2, dos.example on line
 * 3) with these columns set; `extra` rows follow (line 4 on).
 */
export function domainsCsv(
  uno: Record<string, string> = {},
  dos: Record<string, string> = {},
  ...extra: Record<string, string>[]
): string {
  const rows = [
    { domain: "uno.example", name: "Uno", locale: "es", ...uno },
    { domain: "dos.example", name: "Dos", locale: "en", ...dos },
    ...extra,
  ];
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    [columns, ...rows.map((row) => columns.map((c) => row[c] ?? ""))]
      .map((r) => r.map(cell).join(","))
      .join("\n") + "\n"
  );
}
