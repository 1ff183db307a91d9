import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";
import { runCli } from "../reliability/helpers.ts";
import { requireTool } from "../support/requires.ts";
import { DATE, domainsCsv } from "./project.ts";

/**
 * A fuzz over domains.csv's URL and path columns (base_url, media_url, languages, and the domain
 * of a third row): for every generated file, either `validate` refuses it at a row's line, or the
 * build passes and every generated configuration loads (`nginx -t`, `caddy validate`). Nothing a
 * server cannot take gets past validate (item 2: settings checked once, at validate, for every
 * server). The command runs in this process (src/cli/run.ts) to keep a run under a second; seeded,
 * bounded, and stopped at the first failure without shrinking (each run is a build).
 */

const nginx = requireTool("nginx", "the domains.csv fuzz");
const caddy = requireTool("caddy", "the domains.csv fuzz");
/**
 * Runs a server's configuration check: its exit code and what it printed on stderr. stdout is
 * not a pipe: nginx opens /dev/stdout for its access log, which fails on the socket Node gives a
 * child for a pipe.
 */
function check(
  binary: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(binary, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr }));
  });
}

/** Each part of a URL: mostly what libraries write, sometimes what breaks a server or a URL. */
const HOSTS = {
  plain: ["uno.example", "dos.example", "media.example", "shared.example", "cdn.example"],
  odd: [
    "UNO.Example",
    "bücher.example",
    "xn--bcher-kva.example",
    "a_b.example",
    "localhost",
    "127.0.0.1",
    "[::1]",
  ],
};
const PORTS = { plain: [""], odd: [":8443", ":80", ":443", ":0", ":65535"] };
const SEGMENTS = {
  plain: ["cat", "cataleg", "es", "m", "x-1", "a.b", "~u"],
  odd: [
    "a;b",
    "a$b",
    "$uri",
    "it's",
    'a"b',
    "a%20b",
    "%2F",
    "{env.HOME}",
    "{query}",
    "",
    ".",
    "..",
    "_x",
    "a b",
    "é",
    "api",
    "media",
    "assets",
    "browse",
    "en",
    "a\\b",
    "@",
    "a:b",
    "(x)",
    "*",
    "x#y",
    "a`b",
  ],
};
const SUFFIXES = { plain: ["", "/"], odd: ["?", "#", "?q=1", "#f", "//"] };
const LANGUAGES = [
  "",
  "en",
  "en fr",
  "media",
  "api",
  "de",
  "zh-Hant",
  "x-klingon",
  "assets",
  "es-419",
  "gsw",
  "en en",
  "ES",
];
const DOMAINS = [
  "tres.example",
  "tres.example:8080",
  "tres.example.",
  "TRES.example",
  "tres_x.example",
  "{env.HOME}",
  "tres.example;x",
  "$host",
  "bücher.example",
  "127.0.0.1",
  "localhost",
];

const part = (pools: { plain: string[]; odd: string[] }) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...pools.plain) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.odd) },
  );

/** A URL of those parts: scheme, host, port, up to three segments and an ending. */
const url = fc
  .tuple(
    fc.constantFrom("https://", "http://", "HTTPS://"),
    part(HOSTS),
    part(PORTS),
    fc.array(part(SEGMENTS), { maxLength: 3 }),
    part(SUFFIXES),
  )
  .map(
    ([scheme, host, port, segments, suffix]) =>
      `${scheme}${host}${port}${segments.map((s) => `/${s}`).join("")}${suffix}`,
  );

/** Settings that work, the start of every generated file: a fuzzed file differs from one of them in a cell or two. */
const BENIGN = {
  uno: {
    base_url: ["", "https://uno.example", "https://uno.example/cat", "http://uno.example/a/b"],
    media_url: ["", "https://media.example/covers", "https://uno.example/m"],
    languages: ["", "en", "fr ca"],
  },
  dos: {
    base_url: ["", "https://dos.example", "https://dos.example/cataleg"],
    media_url: ["", "https://media.example/dos", "https://cdn.example"],
    languages: ["", "es"],
  },
};
const benign = (pools: Record<string, string[]>) =>
  fc.record(
    Object.fromEntries(
      Object.entries(pools).map(([column, values]) => [column, fc.constantFrom(...values)]),
    ),
  );

/** One cell changed: a URL column to a generated URL, or the languages to a tag of the pool. */
const mutation = fc.record({
  row: fc.constantFrom(0, 1),
  column: fc.constantFrom("base_url", "media_url", "languages"),
  url,
  language: fc.constantFrom(...LANGUAGES),
});

const files = fc
  .tuple(
    benign(BENIGN.uno),
    benign(BENIGN.dos),
    fc.array(mutation, { minLength: 1, maxLength: 2 }),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.record({ domain: fc.constantFrom(...DOMAINS), base_url: url }) },
    ),
  )
  .map(([uno, dos, mutations, third]) => {
    const rows = [{ ...uno }, { ...dos }];
    for (const m of mutations)
      rows[m.row]![m.column] = m.column === "languages" ? m.language : m.url;
    return domainsCsv(rows[0], rows[1], ...(third === undefined ? [] : [third]));
  });

const RUNS = 80;
/** Files that must get past validate, so the servers' checks are exercised too (about one in five does). */
const MIN_ACCEPTED = 5;
let accepted = 0;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-hostile-fuzz-"));
  await writeContent(path.join(dir, "content"));
  await mkdir(path.join(dir, "nginx"), { recursive: true });
  await mkdir(path.join(dir, "caddy"), { recursive: true });
});

afterAll(() => cleanup?.());

/** What is wrong with one generated domains.csv, or null when all is well. */
async function problemWith(csv: string): Promise<string | null> {
  const content = path.join(dir, "content");
  const out = path.join(dir, "dist");
  await writeFile(path.join(content, "domains.csv"), csv);
  const checked = await runCli(["validate", "--content", content]);
  if (checked.code === 1) {
    return /domains\.csv:[234]: /.test(checked.stderr)
      ? null
      : `validate refused without a domains.csv row's line:\n${checked.stderr}`;
  }
  if (checked.code !== 0) return `validate exited ${checked.code}:\n${checked.stderr}`;
  accepted++;
  const built = await runCli([
    "build",
    "--content",
    content,
    "--out",
    out,
    "--date",
    DATE,
    "--no-site",
    "--cache",
    path.join(dir, ".cache"),
  ]);
  if (built.code !== 0) return `validate passed, build exited ${built.code}:\n${built.stderr}`;
  const nginxConf = await runCli(["config", "nginx", "--dir", out, "--listen", "127.0.0.1:8080"]);
  if (nginxConf.code !== 0)
    return `validate passed, config nginx exited ${nginxConf.code}:\n${nginxConf.stderr}`;
  const caddyConf = await runCli(["config", "caddy", "--dir", out, "--listen", "127.0.0.1:8080"]);
  if (caddyConf.code !== 0)
    return `validate passed, config caddy exited ${caddyConf.code}:\n${caddyConf.stderr}`;
  const prefix = path.join(dir, "nginx");
  await writeFile(path.join(prefix, "nginx.conf"), nginxConf.stdout);
  const nginxTest = await check(nginx!, [
    "-t",
    "-p",
    prefix,
    "-c",
    path.join(prefix, "nginx.conf"),
    "-g",
    `pid ${path.join(prefix, "nginx.pid")};`,
  ]);
  if (nginxTest.code !== 0) return `validate passed, nginx -t failed:\n${nginxTest.stderr}`;
  const home = path.join(dir, "caddy");
  await writeFile(path.join(home, "Caddyfile"), caddyConf.stdout);
  const caddyTest = await check(
    caddy!,
    ["validate", "--adapter", "caddyfile", "--config", path.join(home, "Caddyfile")],
    { ...process.env, HOME: home, XDG_CONFIG_HOME: home, XDG_DATA_HOME: home },
  );
  if (caddyTest.code !== 0)
    return `validate passed, caddy validate failed:\n${caddyTest.stderr.slice(-2000)}`;
  return null;
}

describe.runIf(nginx !== null && caddy !== null)(
  "domains.csv fuzz (item 2: every config loads, or validate refused the row)",
  () => {
    it(`${RUNS} generated files: each refused by validate at a row's line, or served by nginx and Caddy configurations that load`, async () => {
      await fc.assert(
        fc.asyncProperty(files, async (csv) => {
          const problem = await problemWith(csv);
          expect(problem, `domains.csv:\n${csv}`).toBeNull();
        }),
        { numRuns: RUNS, seed: 39, endOnFailure: true },
      );
      // Not a fuzz of the refusals alone: enough files got past validate to reach the servers' checks.
      expect(accepted, `only ${accepted} of ${RUNS} files passed validate`).toBeGreaterThanOrEqual(
        MIN_ACCEPTED,
      );
    }, 240_000);
  },
);
